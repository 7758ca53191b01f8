// libcurl opened on first use: each function Roost calls, defined as a call through its
// address (CSharedLibrary), with the prototype curl.h gives it.
#include "CCurl.h"

#include <CSharedLibrary.h>

// The soname is the ABI the headers describe: libcurl.so.4 since libcurl 7.16, through 8.x.
_Static_assert(LIBCURL_VERSION_MAJOR == 7 || LIBCURL_VERSION_MAJOR == 8,
               "curl.h is not libcurl 7 or 8: check the soname below (libcurl.so.4)");

static roost_shared_library curl =
    ROOST_SHARED_LIBRARY("libcurl.so.4", "reaching the network (mirroring images, a Firestore database)");

ROOST_FORWARD(curl, CURLcode, curl_global_init, (long flags), (flags))
ROOST_FORWARD(curl, char *, curl_version, (void), ())
ROOST_FORWARD(curl, CURL *, curl_easy_init, (void), ())
ROOST_FORWARD_VOID(curl, curl_easy_cleanup, (CURL *easy), (easy))
ROOST_FORWARD(curl, CURLcode, curl_easy_perform, (CURL *easy), (easy))
ROOST_FORWARD(curl, CURLcode, curl_easy_pause, (CURL *easy, int bitmask), (easy, bitmask))
ROOST_FORWARD(curl, const char *, curl_easy_strerror, (CURLcode code), (code))
ROOST_FORWARD(curl, CURLHcode, curl_easy_header,
              (CURL *easy, const char *name, size_t index, unsigned int origin, int request,
               struct curl_header **header),
              (easy, name, index, origin, request, header))
ROOST_FORWARD(curl, struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data),
              (list, data))
ROOST_FORWARD_VOID(curl, curl_slist_free_all, (struct curl_slist *list), (list))
ROOST_FORWARD_VOID(curl, curl_free, (void *pointer), (pointer))
ROOST_FORWARD(curl, CURLM *, curl_multi_init, (void), ())
ROOST_FORWARD(curl, CURLMcode, curl_multi_cleanup, (CURLM *multi), (multi))
ROOST_FORWARD(curl, CURLMcode, curl_multi_add_handle, (CURLM *multi, CURL *easy), (multi, easy))
ROOST_FORWARD(curl, CURLMcode, curl_multi_remove_handle, (CURLM *multi, CURL *easy), (multi, easy))
ROOST_FORWARD(curl, CURLMcode, curl_multi_perform, (CURLM *multi, int *running), (multi, running))
ROOST_FORWARD(curl, CURLMcode, curl_multi_poll,
              (CURLM *multi, struct curl_waitfd extra[], unsigned int extraCount, int timeout, int *ready),
              (multi, extra, extraCount, timeout, ready))
ROOST_FORWARD(curl, CURLMcode, curl_multi_wakeup, (CURLM *multi), (multi))
ROOST_FORWARD(curl, CURLMsg *, curl_multi_info_read, (CURLM *multi, int *left), (multi, left))
ROOST_FORWARD(curl, CURLU *, curl_url, (void), ())
ROOST_FORWARD_VOID(curl, curl_url_cleanup, (CURLU *url), (url))
ROOST_FORWARD(curl, CURLUcode, curl_url_set, (CURLU *url, CURLUPart part, const char *text, unsigned int flags),
              (url, part, text, flags))
ROOST_FORWARD(curl, CURLUcode, curl_url_get, (CURLU *url, CURLUPart part, char **text, unsigned int flags),
              (url, part, text, flags))

// The variadic three, called with the one argument of the type each wrapper fixes.

typedef CURLcode (*easy_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*easy_getinfo_function)(CURL *, CURLINFO, ...);
typedef CURLMcode (*multi_setopt_function)(CURLM *, CURLMoption, ...);

static easy_setopt_function easy_setopt(void) {
  static _Atomic(void *) cache;
  return (easy_setopt_function)roost_shared_library_cached(&curl, "curl_easy_setopt", &cache);
}

static easy_getinfo_function easy_getinfo(void) {
  static _Atomic(void *) cache;
  return (easy_getinfo_function)roost_shared_library_cached(&curl, "curl_easy_getinfo", &cache);
}

static multi_setopt_function multi_setopt(void) {
  static _Atomic(void *) cache;
  return (multi_setopt_function)roost_shared_library_cached(&curl, "curl_multi_setopt", &cache);
}

CURLcode roost_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
  return easy_setopt()(easy, option, value);
}

CURLcode roost_curl_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value) {
  return easy_setopt()(easy, option, value);
}

CURLcode roost_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
  return easy_setopt()(easy, option, value);
}

CURLcode roost_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
  return easy_setopt()(easy, option, value);
}

CURLcode roost_curl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
  return easy_setopt()(easy, option, value);
}

CURLcode roost_curl_easy_setopt_write(CURL *easy, roost_curl_write_callback callback) {
  return easy_setopt()(easy, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode roost_curl_easy_setopt_header(CURL *easy, roost_curl_write_callback callback) {
  return easy_setopt()(easy, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode roost_curl_easy_setopt_read(CURL *easy, roost_curl_read_callback callback) {
  return easy_setopt()(easy, CURLOPT_READFUNCTION, callback);
}

CURLcode roost_curl_easy_setopt_opensocket(CURL *easy, roost_curl_opensocket_callback callback) {
  return easy_setopt()(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode roost_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
  return easy_getinfo()(easy, info, value);
}

CURLcode roost_curl_easy_getinfo_string(CURL *easy, CURLINFO info, char **value) {
  return easy_getinfo()(easy, info, value);
}

CURLcode roost_curl_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) {
  return easy_getinfo()(easy, info, value);
}

CURLMcode roost_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return multi_setopt()(multi, option, value);
}
