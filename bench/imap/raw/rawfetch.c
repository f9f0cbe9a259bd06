/*
 * The benchmark's lower bound: what the bytes on the wire cost, with no parsing.
 *
 *   rawfetch fetch tls|plain PORT CAFILE   LOGIN, SELECT INBOX and one
 *       UID FETCH 1:* (UID FLAGS RFC822.SIZE BODY.PEEK[HEADER]), pipelined in one
 *       write, then LOGOUT; reads everything until the server closes.
 *   rawfetch poll tls|plain PORT CAFILE    LOGIN, SELECT INBOX (CONDSTORE), LOGOUT:
 *       the bare "anything new?" a cron job needs (UIDNEXT, HIGHESTMODSEQ).
 *   rawfetch script tls|plain PORT CAFILE FILE   LOGIN, SELECT INBOX, the commands
 *       in FILE (CRLF lines, e.g. UID STORE and UID MOVE), LOGOUT: the server's own
 *       cost of the actions.
 *
 * Connects to 127.0.0.1 as me@example.test; TLS is verified against CAFILE for
 * the name localhost (GnuTLS, like triage). Prints the bytes received on stdout.
 * Build: cc -O2 -o rawfetch rawfetch.c -lgnutls
 */
#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what, const char *detail) {
    fprintf(stderr, "rawfetch: %s: %s\n", what, detail);
    exit(75);
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: rawfetch fetch|poll|script tls|plain PORT CAFILE [FILE]\n");
        return 64;
    }
    int poll = strcmp(argv[1], "poll") == 0;
    char *script = NULL;
    if (strcmp(argv[1], "script") == 0) {
        if (argc != 6) die("script", "needs a FILE of commands");
        FILE *f = fopen(argv[5], "rb");
        if (!f) die("script", argv[5]);
        static const char head[] = "a LOGIN me@example.test test-password\r\nb SELECT INBOX\r\n";
        static const char tail[] = "z LOGOUT\r\n";
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        rewind(f);
        script = malloc(sizeof head + (size_t)size + sizeof tail);
        strcpy(script, head);
        size_t got = fread(script + strlen(head), 1, (size_t)size, f);
        script[strlen(head) + got] = 0;
        strcat(script, tail);
        fclose(f);
    }
    int tls = strcmp(argv[2], "tls") == 0;
    int port = atoi(argv[3]);

    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect", "refused");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    gnutls_session_t session = NULL;
    gnutls_certificate_credentials_t cred = NULL;
    if (tls) {
        gnutls_global_init();
        gnutls_certificate_allocate_credentials(&cred);
        if (gnutls_certificate_set_x509_trust_file(cred, argv[4], GNUTLS_X509_FMT_PEM) <= 0) die("CA file", argv[4]);
        gnutls_init(&session, GNUTLS_CLIENT);
        gnutls_set_default_priority(session);
        gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, cred);
        gnutls_session_set_verify_cert(session, "localhost", 0);
        gnutls_transport_set_int(session, fd);
        int rc;
        do rc = gnutls_handshake(session); while (rc < 0 && !gnutls_error_is_fatal(rc));
        if (rc < 0) die("TLS handshake", gnutls_strerror(rc));
    }

    const char *commands = script ? script : poll
        ? "a LOGIN me@example.test test-password\r\nb SELECT INBOX (CONDSTORE)\r\nc LOGOUT\r\n"
        : "a LOGIN me@example.test test-password\r\nb SELECT INBOX\r\n"
          "c UID FETCH 1:* (UID FLAGS RFC822.SIZE BODY.PEEK[HEADER])\r\nd LOGOUT\r\n";
    size_t length = strlen(commands), done = 0;
    while (done < length) {
        ssize_t sent = tls ? gnutls_record_send(session, commands + done, length - done)
                           : write(fd, commands + done, length - done);
        if (sent == GNUTLS_E_AGAIN || sent == GNUTLS_E_INTERRUPTED) continue;
        if (sent <= 0) die("send", "write failed");
        done += (size_t)sent;
    }

    static char buffer[1 << 18];
    long long total = 0;
    for (;;) {
        ssize_t n = tls ? gnutls_record_recv(session, buffer, sizeof buffer) : read(fd, buffer, sizeof buffer);
        if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED) continue;
        if (n == GNUTLS_E_PREMATURE_TERMINATION) break; /* the server closed after LOGOUT */
        if (n < 0) die("read", tls ? gnutls_strerror((int)n) : "error");
        if (n == 0) break;
        total += n;
    }
    if (tls) {
        gnutls_deinit(session);
        gnutls_certificate_free_credentials(cred);
    }
    close(fd);
    printf("%lld\n", total);
    return 0;
}
