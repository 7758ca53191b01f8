#ifndef ROOST_CCURL_H
#define ROOST_CCURL_H

// Stops curl.h from wrapping curl_easy_setopt in type-checking macros (the wrappers below fix the types).
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call: these wrappers fix the type of the one argument each use of them passes.
//
// libcurl is opened on first use (Curl.c, CSharedLibrary): every function of it Roost calls
// is defined there, so a function used here and not defined there fails the link.

CURLcode roost_curl_easy_setopt_long(CURL *easy, CURLoption option, long value);

CURLcode roost_curl_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value);

CURLcode roost_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);

// Strings are copied by libcurl (since 7.17), so the caller's may go away after the call.
CURLcode roost_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);

CURLcode roost_curl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);

typedef size_t (*roost_curl_write_callback)(char *data, size_t size, size_t count, void *user);

CURLcode roost_curl_easy_setopt_write(CURL *easy, roost_curl_write_callback callback);

typedef curl_socket_t (*roost_curl_opensocket_callback)(void *user, curlsocktype purpose, struct curl_sockaddr *address);

CURLcode roost_curl_easy_setopt_opensocket(CURL *easy, roost_curl_opensocket_callback callback);

CURLcode roost_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);

CURLcode roost_curl_easy_getinfo_string(CURL *easy, CURLINFO info, char **value);

CURLcode roost_curl_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value);

CURLMcode roost_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

typedef size_t (*roost_curl_read_callback)(char *buffer, size_t size, size_t count, void *user);

CURLcode roost_curl_easy_setopt_read(CURL *easy, roost_curl_read_callback callback);

// Headers, and trailers after the body, one line per call: the write callback's signature.
CURLcode roost_curl_easy_setopt_header(CURL *easy, roost_curl_write_callback callback);

#endif
