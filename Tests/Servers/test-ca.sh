# Sourced by the test server scripts: a throw-away test CA and a server certificate
# for localhost / 127.0.0.1 (the way dovecot.sh makes its own), in DIR/ssl:
#   ca.pem                    the CA triage is given as ca_file
#   server.pem, server.key    the server's certificate and key
#   server-combined.pem       key and certificate in one file (Courier's TLS_CERTFILE)
# EC keys: a CA and a certificate in well under a second; they live 2 days, and a
# reused folder gets fresh ones an hour before that.
make_test_certs() { # DIR
  local ssl="$1/ssl"
  if [ -f "$ssl/server-combined.pem" ] && openssl x509 -checkend 3600 -noout -in "$ssl/ca.pem" >/dev/null 2>&1; then
    return 0
  fi
  mkdir -p "$ssl"
  local key=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  (
    cd "$ssl"
    openssl req -x509 "${key[@]}" -keyout ca.key -out ca.pem -days 2 \
      -subj "/CN=triage test CA" -addext "basicConstraints=critical,CA:TRUE" \
      -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl req "${key[@]}" -keyout server.key -out server.csr -subj "/CN=localhost" 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
      -days 2 -extfile server.ext -out server.pem 2>/dev/null
    rm -f server.csr server.ext
    cat server.key server.pem >server-combined.pem
    chmod 600 ./*.key server-combined.pem
  )
}

# A free TCP port on 127.0.0.1 (the server may still lose a race for it: callers retry).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    port_free "$p" && { echo "$p"; return; }
  done
}
