// Stops curl.h from wrapping curl_easy_setopt in type-checking macros (the wrappers below fix the types).
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call: these wrappers fix the type of the one argument each use of them passes.

static inline CURLcode roost_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}

static inline CURLcode roost_curl_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(easy, option, value);
}

static inline CURLcode roost_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
  return curl_easy_setopt(easy, option, value);
}

// Strings are copied by libcurl (since 7.17), so the caller's may go away after the call.
static inline CURLcode roost_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
  return curl_easy_setopt(easy, option, value);
}

static inline CURLcode roost_curl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(easy, option, value);
}

typedef size_t (*roost_curl_write_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode roost_curl_easy_setopt_write(CURL *easy, roost_curl_write_callback callback) {
  return curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
}

typedef curl_socket_t (*roost_curl_opensocket_callback)(void *user, curlsocktype purpose, struct curl_sockaddr *address);

static inline CURLcode roost_curl_easy_setopt_opensocket(CURL *easy, roost_curl_opensocket_callback callback) {
  return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode roost_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
  return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode roost_curl_easy_getinfo_string(CURL *easy, CURLINFO info, char **value) {
  return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode roost_curl_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(easy, info, value);
}

static inline CURLMcode roost_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

typedef size_t (*roost_curl_read_callback)(char *buffer, size_t size, size_t count, void *user);

static inline CURLcode roost_curl_easy_setopt_read(CURL *easy, roost_curl_read_callback callback) {
  return curl_easy_setopt(easy, CURLOPT_READFUNCTION, callback);
}

// Headers, and trailers after the body, one line per call: the write callback's signature.
static inline CURLcode roost_curl_easy_setopt_header(CURL *easy, roost_curl_write_callback callback) {
  return curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
}
