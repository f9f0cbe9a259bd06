// libcurl, opened on first use instead of at process start.
//
// triage needs libcurl only to send a digest, post a webhook or talk to a CalDAV
// server; linked normally, the dynamic loader maps it and its 18 dependencies
// (Kerberos, LDAP, SSH, RTMP, OpenSSL's libcrypto, HTTP/2, ...) and resolves their
// symbols on every start, about 4 ms of CPU: a quarter of a no-op cron run.
// So the binary does not link libcurl (CCurl's module map names no library); these
// definitions of the libcurl functions triage calls open it with dlopen the first
// time one is called and forward to it. Without the library they fail the way
// libcurl itself reports failure (CURLE_FAILED_INIT, NULL), which the Swift side
// already turns into "libcurl could not start a session".
//
// The library is the GnuTLS build (libcurl3-gnutls): TLSGate reads its TLS session
// as a gnutls_session_t, so no other flavour may stand in for it.
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>

#define TRIAGE_CURL_LIBRARY "libcurl-gnutls.so.4"

static struct {
    int loaded;
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    void (*free)(void *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen(TRIAGE_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    int all = 1;
#define TRIAGE_CURL_SYMBOL(field, name) \
    *(void **)(&api.field) = dlsym(library, name); \
    all = all && api.field != NULL;
    TRIAGE_CURL_SYMBOL(global_init, "curl_global_init")
    TRIAGE_CURL_SYMBOL(easy_init, "curl_easy_init")
    TRIAGE_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    TRIAGE_CURL_SYMBOL(easy_perform, "curl_easy_perform")
    TRIAGE_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    TRIAGE_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    TRIAGE_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    TRIAGE_CURL_SYMBOL(free, "curl_free")
    TRIAGE_CURL_SYMBOL(slist_append, "curl_slist_append")
    TRIAGE_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
    TRIAGE_CURL_SYMBOL(url, "curl_url")
    TRIAGE_CURL_SYMBOL(url_cleanup, "curl_url_cleanup")
    TRIAGE_CURL_SYMBOL(url_get, "curl_url_get")
    TRIAGE_CURL_SYMBOL(url_set, "curl_url_set")
#undef TRIAGE_CURL_SYMBOL
    api.loaded = all;
}

static int ready(void) {
    pthread_once(&once, load);
    return api.loaded;
}

CURLcode curl_global_init(long flags) {
    return ready() ? api.global_init(flags) : CURLE_FAILED_INIT;
}

CURL *curl_easy_init(void) {
    return ready() ? api.easy_init() : NULL;
}

void curl_easy_cleanup(CURL *curl) {
    if (ready()) api.easy_cleanup(curl);
}

CURLcode curl_easy_perform(CURL *curl) {
    return ready() ? api.easy_perform(curl) : CURLE_FAILED_INIT;
}

// The variadic argument is passed on as the type libcurl reads for the option's
// range (curl.h's CURLOPTTYPE_*; object, string, list and callback pointers alike).
CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...) {
    if (!ready()) return CURLE_FAILED_INIT;
    va_list arguments;
    va_start(arguments, option);
    CURLcode result;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        result = api.easy_setopt(curl, option, va_arg(arguments, long));
    } else if (option < CURLOPTTYPE_OFF_T) {
        result = api.easy_setopt(curl, option, va_arg(arguments, void *));
    } else if (option < CURLOPTTYPE_BLOB) {
        result = api.easy_setopt(curl, option, va_arg(arguments, curl_off_t));
    } else {
        result = api.easy_setopt(curl, option, va_arg(arguments, void *));
    }
    va_end(arguments);
    return result;
}

// Every CURLINFO takes a pointer to where the answer goes.
CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...) {
    if (!ready()) return CURLE_FAILED_INIT;
    va_list arguments;
    va_start(arguments, info);
    CURLcode result = api.easy_getinfo(curl, info, va_arg(arguments, void *));
    va_end(arguments);
    return result;
}

const char *curl_easy_strerror(CURLcode code) {
    return ready() ? api.easy_strerror(code) : "libcurl (" TRIAGE_CURL_LIBRARY ") cannot be loaded; install libcurl3-gnutls";
}

void curl_free(void *pointer) {
    if (ready()) api.free(pointer);
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string) {
    return ready() ? api.slist_append(list, string) : NULL;
}

void curl_slist_free_all(struct curl_slist *list) {
    if (ready()) api.slist_free_all(list);
}

CURLU *curl_url(void) {
    return ready() ? api.url() : NULL;
}

void curl_url_cleanup(CURLU *url) {
    if (ready()) api.url_cleanup(url);
}

CURLUcode curl_url_get(CURLU *url, CURLUPart what, char **part, unsigned int flags) {
    return ready() ? api.url_get(url, what, part, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode curl_url_set(CURLU *url, CURLUPart what, const char *part, unsigned int flags) {
    return ready() ? api.url_set(url, what, part, flags) : CURLUE_OUT_OF_MEMORY;
}
