// A shared library opened on first use (dlopen), not by the dynamic loader at start-up: a
// build of a folder store calls no function of libcurl, libmicrohttpd or libcrypto, and
// linking them would have every command load them and the libraries they need.
#ifndef ROOST_SHARED_LIBRARY_H
#define ROOST_SHARED_LIBRARY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct roost_shared_library {
  /// The file name dlopen looks for: the library's soname, the ABI its headers describe.
  const char *soname;
  /// What needs it, for the message when it cannot be opened ("mirroring images").
  const char *purpose;
  pthread_mutex_t lock;
  bool tried;
  void *handle;
  char error[512];
} roost_shared_library;

#define ROOST_SHARED_LIBRARY(soname, purpose) {soname, purpose, PTHREAD_MUTEX_INITIALIZER, false, NULL, {0}}

/// Sets up `library` as `ROOST_SHARED_LIBRARY` does, for a library not known at compile time;
/// `soname` and `purpose` must outlive it.
void roost_shared_library_init(roost_shared_library *library, const char *soname, const char *purpose);

/// Opens `library` (once; later calls answer as the first did). False, with the reason in
/// `library->error`, when it cannot be opened.
bool roost_shared_library_open(roost_shared_library *library);

/// The address of the function `name` of `library`, opened if it is not yet. When the
/// library cannot be opened or lacks the function, writes why to standard error and exits
/// with status 127, as the dynamic loader does when a library a program needs is missing.
void *roost_shared_library_function(roost_shared_library *library, const char *name);

/// The address of `name` in `library`, as `roost_shared_library_function` finds it, kept in
/// `cache` (one for each function) so that it is looked up once.
static inline void *roost_shared_library_cached(roost_shared_library *library, const char *name,
                                                _Atomic(void *) *cache) {
  void *address = atomic_load_explicit(cache, memory_order_acquire);
  if (!address) {
    address = roost_shared_library_function(library, name);
    atomic_store_explicit(cache, address, memory_order_release);
  }
  return address;
}

/// Defines `name`, declared by the library's own header with the return type `type` and the
/// parameters `params`, as a call through its address in `library`.
#define ROOST_FORWARD(library, type, name, params, args)                                      \
  type name params {                                                                          \
    static _Atomic(void *) cache;                                                             \
    return ((type(*) params)roost_shared_library_cached(&library, #name, &cache)) args;       \
  }

/// `ROOST_FORWARD` for a function that returns nothing.
#define ROOST_FORWARD_VOID(library, name, params, args)                                       \
  void name params {                                                                          \
    static _Atomic(void *) cache;                                                             \
    ((void(*) params)roost_shared_library_cached(&library, #name, &cache)) args;              \
  }

#endif
