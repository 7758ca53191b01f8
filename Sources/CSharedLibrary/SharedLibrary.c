#include "CSharedLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void roost_shared_library_init(roost_shared_library *library, const char *soname, const char *purpose) {
  *library = (roost_shared_library)ROOST_SHARED_LIBRARY(soname, purpose);
}

bool roost_shared_library_open(roost_shared_library *library) {
  pthread_mutex_lock(&library->lock);
  if (!library->tried) {
    library->tried = true;
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (!library->handle) {
      const char *reason = dlerror();
      snprintf(library->error, sizeof library->error, "%s", reason ? reason : library->soname);
    }
  }
  bool open = library->handle != NULL;
  pthread_mutex_unlock(&library->lock);
  return open;
}

void *roost_shared_library_function(roost_shared_library *library, const char *name) {
  if (!roost_shared_library_open(library)) {
    fprintf(stderr,
            "roost: %s needs %s, which could not be loaded: %s\n"
            "Install the package that provides %s (Roost's own package depends on it).\n",
            library->purpose, library->soname, library->error, library->soname);
    exit(127);
  }
  void *address = dlsym(library->handle, name);
  if (!address) {
    fprintf(stderr, "roost: %s has no function %s, which %s needs: the installed %s is too old.\n",
            library->soname, name, library->purpose, library->soname);
    exit(127);
  }
  return address;
}
