#ifndef TRIAGE_CSHIMS_H
#define TRIAGE_CSHIMS_H
// Typed wrappers for C entry points Swift cannot call directly
// (variadic functions and function-like macros).
#include <curl/curl.h>

CURLcode triage_curl_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode triage_curl_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode triage_curl_setopt_pointer(CURL *curl, CURLoption option, void *value);
CURLcode triage_curl_setopt_read_callback(CURL *curl,
    size_t (*callback)(char *buffer, size_t size, size_t nitems, void *userdata));
CURLcode triage_curl_setopt_write_callback(CURL *curl,
    size_t (*callback)(char *buffer, size_t size, size_t nitems, void *userdata));
CURLcode triage_curl_getinfo_long(CURL *curl, CURLINFO info, long *value);
/// CURLOPT_DEBUGFUNCTION: sees the protocol conversation (used to tell which
/// SMTP step failed; it never records what the client sends during AUTH).
CURLcode triage_curl_setopt_debug_callback(CURL *curl,
    int (*callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata));
/// The gnutls_session_t of the handle's TLS connection (CURLINFO_TLS_SSL_PTR), or
/// NULL before the TLS layer is set up or with another TLS backend.
void *triage_curl_gnutls_session(CURL *curl);
/// CURLOPT_PREREQFUNCTION: runs once connected, before the request (for SMTP: after
/// AUTH, before MAIL FROM).
CURLcode triage_curl_setopt_prereq_callback(CURL *curl,
    int (*callback)(void *userdata, char *conn_primary_ip, char *conn_local_ip, int conn_primary_port, int conn_local_port));
CURLcode triage_curl_setopt_opensocket_callback(CURL *curl,
    curl_socket_t (*callback)(void *userdata, curlsocktype purpose, struct curl_sockaddr *address));
CURLcode triage_curl_setopt_closesocket_callback(CURL *curl, int (*callback)(void *userdata, curl_socket_t socket));

// glibc's mallopt (in <malloc.h>, which Swift's Glibc module leaves out).
/// One malloc arena for the whole process: `triage run` fetches on a second thread
/// (the next chunk's FETCH while the current one is classified), and glibc would
/// give that thread an arena of its own that keeps its high-water mark beside the
/// main one (1.6 to 5.6 MB more at 10,000 messages). Call before starting any thread.
void triage_single_malloc_arena(void);

#endif
