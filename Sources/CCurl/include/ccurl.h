// CCurl: one HTTP exchange through libcurl, which is loaded with dlopen the first time a request is
// made. Commands that never call Apple's API (`--version`, `dump`, …) never map libcurl or its TLS
// library into the process (docs/performance.md, "Start-up"). The header names no curl type, so
// Swift sees only this small API; the library's names come from the caller (Platform's SharedLibraries).
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// What went wrong, by family: enough for the caller to word it and choose an exit status.
typedef enum {
    CCURL_OK = 0,
    CCURL_NO_LIBRARY,   ///< libcurl could not be loaded or lacks a function (error_text says which)
    CCURL_RESOLVE,      ///< the host name did not resolve
    CCURL_CONNECT,      ///< the connection was refused or could not be made
    CCURL_TIMEOUT,      ///< the time-out passed (connecting, or the whole exchange)
    CCURL_TLS,          ///< the TLS handshake or the server's certificate failed
    CCURL_TOO_LARGE,    ///< the body passed max_body bytes: the transfer was stopped
    CCURL_OTHER,        ///< anything else curl reports (error_text has its words)
} ccurl_error;

typedef struct {
    const char *method;              ///< "GET" or "POST"
    const char *url;
    const char *const *headers;      ///< "Name: value" lines (the Authorization header among them)
    size_t header_count;
    const unsigned char *body;       ///< POST body (may be NULL)
    size_t body_length;
    long timeout_seconds;            ///< the whole exchange, connecting included
    size_t max_body;                 ///< a longer body stops the transfer with CCURL_TOO_LARGE
} ccurl_request;

typedef struct {
    ccurl_error error;
    long status;                     ///< HTTP status (0 when no response came)
    unsigned char *body;             ///< malloc'd, body_length bytes; free with ccurl_response_free
    size_t body_length;
    char retry_after[64];            ///< the Retry-After header's value, "" when absent
    char content_type[128];          ///< the Content-Type header's value, "" when absent
    char location[512];              ///< the Location header's value, "" when absent
    char error_text[512];            ///< curl's words for the failure (never the request's headers)
} ccurl_response;

/// Performs one exchange (no redirects are followed: the bearer token goes to the one host asked).
/// The first call loads libcurl by the first of `library_names` (NULL-terminated) that dlopen finds;
/// later calls reuse it. Safe to call from several threads.
void ccurl_perform(const char *const *library_names, const ccurl_request *request, ccurl_response *response);

/// Frees the response's body.
void ccurl_response_free(ccurl_response *response);

/// Whether libcurl is loaded in this process (tests check that `--version` never loads it).
int ccurl_is_loaded(void);

#endif
