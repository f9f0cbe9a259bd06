#include "CShims.h"

CURLcode triage_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode triage_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode triage_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode triage_curl_setopt_read_callback(CURL *curl,
    size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_READFUNCTION, callback);
}

CURLcode triage_curl_setopt_write_callback(CURL *curl,
    size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode triage_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

CURLcode triage_curl_setopt_debug_callback(CURL *curl,
    int (*callback)(CURL *, curl_infotype, char *, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, callback);
}

void *triage_curl_gnutls_session(CURL *curl) {
    struct curl_tlssessioninfo *info = NULL;
    if(curl_easy_getinfo(curl, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info)
        return NULL;
    return info->backend == CURLSSLBACKEND_GNUTLS ? info->internals : NULL;
}

CURLcode triage_curl_setopt_prereq_callback(CURL *curl,
    int (*callback)(void *, char *, char *, int, int)) {
    return curl_easy_setopt(curl, CURLOPT_PREREQFUNCTION, callback);
}

CURLcode triage_curl_setopt_opensocket_callback(CURL *curl,
    curl_socket_t (*callback)(void *, curlsocktype, struct curl_sockaddr *)) {
    return curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode triage_curl_setopt_closesocket_callback(CURL *curl, int (*callback)(void *, curl_socket_t)) {
    return curl_easy_setopt(curl, CURLOPT_CLOSESOCKETFUNCTION, callback);
}
