# Sourced by the test server scripts (daemon.sh for dovecot.sh, cyrus.sh, courier.sh and
# mailutils.sh; tls-cases.sh; smtpd.py): every test certificate is made here, with
# openssl. EC keys: a CA and a certificate in well under a second. Everything lives 2
# days; a reused folder gets fresh ones an hour before that (test_certs_fresh).
#
# The standard set, in DIR/ssl (new_test_certs / make_test_certs):
#   ca.pem, ca.key            the test CA triage is given as ca_file
#   server.pem, server.key    the server's certificate for localhost / 127.0.0.1
#   server-combined.pem       key and certificate in one file (Courier's TLS_CERTFILE)

cert_key=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
ca_ext=$'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign'

# new_ca NAME CN: a self-signed CA, NAME.pem and NAME.key in the current folder.
new_ca() {
  openssl req -x509 "${cert_key[@]}" -keyout "$1.key" -out "$1.pem" -days 2 \
    -subj "/CN=$2" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}

# server_ext SAN [EKU]: the extensions of a server certificate (not a CA).
server_ext() {
  printf 'subjectAltName=%s\nextendedKeyUsage=%s\nbasicConstraints=CA:FALSE\n' "$1" "${2:-serverAuth}"
}

# sign NAME ISSUER EXTENSIONS [DAYS]: NAME.key and NAME.crt (CN=NAME) in the current
# folder, signed by ISSUER.pem / ISSUER.key. DAYS -1: valid until a day before it was
# made, i.e. expired.
sign() {
  openssl req "${cert_key[@]}" -keyout "$1.key" -out "$1.csr" -subj "/CN=$1" 2>/dev/null
  printf '%s\n' "$3" >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial \
    -days "${4:-2}" -extfile "$1.ext" -out "$1.crt" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

# leaf NAME ISSUER SAN [DAYS] [EKU]: a server certificate NAME.pem / NAME.key.
leaf() {
  sign "$1" "$2" "$(server_ext "$3" "${5:-serverAuth}")" "${4:-2}"
  mv "$1.crt" "$1.pem"
}

# test_certs_fresh DIR FILE: DIR/ssl/FILE exists (the last thing a set makes) and the
# test CA lives for another hour.
test_certs_fresh() {
  [ -f "$1/ssl/$2" ] && openssl x509 -checkend 3600 -noout -in "$1/ssl/ca.pem" >/dev/null 2>&1
}

# new_test_certs DIR [SAN]: the standard set, new; the server certificate for SAN
# (default localhost / 127.0.0.1).
new_test_certs() {
  mkdir -p "$1/ssl"
  (
    cd "$1/ssl"
    new_ca ca "triage test CA"
    leaf server ca "${2:-DNS:localhost,IP:127.0.0.1}"
    cat server.key server.pem >server-combined.pem
    chmod 600 ./*.key server-combined.pem
  )
}

# make_test_certs DIR: the standard set, unless DIR has a fresh one.
make_test_certs() {
  test_certs_fresh "$1" server-combined.pem || new_test_certs "$1"
}
