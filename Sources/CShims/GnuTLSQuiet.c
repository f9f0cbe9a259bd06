#include <gnutls/gnutls.h>

// libetpan reports a failed TLS handshake with gnutls_perror(), which writes a raw
// "GnuTLS error: ..." line to standard error, beside triage's own message (which
// says the same with the server's name and what to do). Defining the function in
// the program takes precedence over GnuTLS's for every library that calls it
// (ELF symbol interposition), so that line is dropped. Nothing in triage calls it.
void gnutls_perror(int error) {
    (void)error;
}
