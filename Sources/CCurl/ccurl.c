// libcurl behind dlopen: the functions are resolved at the first request (a lazy import), so a
// process that never calls Apple's API never loads libcurl, its TLS library or their dependencies.
// curl's headers give the types and constants; no libcurl symbol is linked.
#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// The names to try, from the caller (Platform's SharedLibraries.curl: the one place that knows them).
static const char *const *library_names;

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    const char *(*easy_strerror)(CURLcode);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_problem[256];

static void load_library(void) {
    void *handle = NULL;
    for (const char *const *name = library_names; *name && !handle; name++) handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_problem, sizeof load_problem, "libcurl could not be loaded (%s): install libcurl (Debian: libcurl4)",
                 library_names[0] ? library_names[0] : "no name given");
        return;
    }
#define RESOLVE(field, symbol)                                                                          \
    do {                                                                                                \
        *(void **)&api.field = dlsym(handle, symbol);                                                   \
        if (!api.field) {                                                                               \
            snprintf(load_problem, sizeof load_problem, "libcurl lacks %s (too old a libcurl?)", symbol); \
            return;                                                                                     \
        }                                                                                               \
    } while (0)
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(easy_strerror, "curl_easy_strerror");
#undef RESOLVE
    // curl_global_init is not thread-safe: pthread_once makes it run once, before any easy handle.
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_problem, sizeof load_problem, "libcurl failed to initialise");
        return;
    }
    loaded = 1;
}

int ccurl_is_loaded(void) { return loaded; }

typedef struct {
    ccurl_response *response;
    size_t capacity;
    size_t max_body;
    int too_large;
} transfer;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t n = size * count;
    ccurl_response *r = t->response;
    if (r->body_length + n > t->max_body) {
        t->too_large = 1;
        return 0; // stops the transfer (CURLE_WRITE_ERROR)
    }
    if (r->body_length + n > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 16384;
        while (capacity < r->body_length + n) capacity *= 2;
        if (capacity > t->max_body) capacity = t->max_body;
        unsigned char *grown = realloc(r->body, capacity);
        if (!grown) return 0;
        r->body = grown;
        t->capacity = capacity;
    }
    memcpy(r->body + r->body_length, data, n);
    r->body_length += n;
    return n;
}

/// Copies the value of header `name` from `line` into `out` (trimmed), when the line is that header.
static void keep_header(const char *line, size_t length, const char *name, char *out, size_t out_size) {
    size_t name_length = strlen(name);
    if (length <= name_length || strncasecmp(line, name, name_length) != 0 || line[name_length] != ':') return;
    const char *value = line + name_length + 1;
    const char *end = line + length;
    while (value < end && (*value == ' ' || *value == '\t')) value++;
    while (end > value && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t')) end--;
    size_t n = (size_t)(end - value);
    if (n >= out_size) n = out_size - 1;
    memcpy(out, value, n);
    out[n] = 0;
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t n = size * count;
    ccurl_response *r = t->response;
    // A new status line (an interim 100 Continue before the answer): forget the previous headers.
    if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) r->retry_after[0] = r->content_type[0] = r->location[0] = 0;
    keep_header(data, n, "Retry-After", r->retry_after, sizeof r->retry_after);
    keep_header(data, n, "Content-Type", r->content_type, sizeof r->content_type);
    keep_header(data, n, "Location", r->location, sizeof r->location);
    return n;
}

static ccurl_error family(CURLcode code, int too_large) {
    if (too_large || code == CURLE_FILESIZE_EXCEEDED) return CCURL_TOO_LARGE;
    switch (code) {
    case CURLE_OK: return CCURL_OK;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return CCURL_RESOLVE;
    case CURLE_COULDNT_CONNECT: return CCURL_CONNECT;
    case CURLE_OPERATION_TIMEDOUT: return CCURL_TIMEOUT;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS: return CCURL_TLS;
    default: return CCURL_OTHER;
    }
}

void ccurl_perform(const char *const *names, const ccurl_request *request, ccurl_response *response) {
    memset(response, 0, sizeof *response);
    if (!library_names) library_names = names; // the first call's names load the library, once
    pthread_once(&load_once, load_library);
    if (!loaded) {
        response->error = CCURL_NO_LIBRARY;
        snprintf(response->error_text, sizeof response->error_text, "%s", load_problem);
        return;
    }
    CURL *curl = api.easy_init();
    if (!curl) {
        response->error = CCURL_OTHER;
        snprintf(response->error_text, sizeof response->error_text, "libcurl could not make a handle");
        return;
    }
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) headers = api.slist_append(headers, request->headers[i]);
    transfer t = {response, 0, request->max_body, 0};
    char errors[CURL_ERROR_SIZE] = {0};
    long connect_timeout = request->timeout_seconds < 10 ? request->timeout_seconds : 10;

    api.easy_setopt(curl, CURLOPT_URL, request->url);
    api.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    // Only http and https, and no redirects: the Authorization header must reach the one host asked.
#if LIBCURL_VERSION_NUM >= 0x075500
    api.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    api.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    api.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // time-outs without SIGALRM (threads)
    api.easy_setopt(curl, CURLOPT_TIMEOUT, request->timeout_seconds);
    api.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, connect_timeout);
    api.easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_body);
    // The body is kept byte for byte as sent: no Accept-Encoding, so no decoding either.
    api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    api.easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    api.easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    api.easy_setopt(curl, CURLOPT_HEADERDATA, &t);
    api.easy_setopt(curl, CURLOPT_ERRORBUFFER, errors);
    if (strcmp(request->method, "POST") == 0) {
        api.easy_setopt(curl, CURLOPT_POST, 1L);
        api.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        api.easy_setopt(curl, CURLOPT_POSTFIELDS, request->body ? (const char *)request->body : "");
    } else if (strcmp(request->method, "GET") != 0) {
        api.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);
    }

    CURLcode code = api.easy_perform(curl);
    api.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
    response->error = family(code, t.too_large);
    if (code != CURLE_OK) {
        snprintf(response->error_text, sizeof response->error_text, "%s", errors[0] ? errors : api.easy_strerror(code));
        size_t n = strlen(response->error_text);
        while (n > 0 && (response->error_text[n - 1] == '\n' || response->error_text[n - 1] == '\r')) response->error_text[--n] = 0;
    }
    api.easy_cleanup(curl);
    api.slist_free_all(headers);
}

void ccurl_response_free(ccurl_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_length = 0;
}
