// libmicrohttpd opened on first use: each function Roost calls, defined as a call through its
// address (CSharedLibrary), with the prototype microhttpd.h gives it.
#include "CMicroHTTPD.h"

#include <CSharedLibrary.h>

// The soname is the ABI the header describes: libmicrohttpd.so.12 for the 0.9.x releases Roost uses.
_Static_assert(MHD_VERSION >= 0x00095000 && MHD_VERSION < 0x01000000,
               "microhttpd.h is not 0.9.50 or later 0.9.x: check the soname below (libmicrohttpd.so.12)");

static roost_shared_library microhttpd =
    ROOST_SHARED_LIBRARY("libmicrohttpd.so.12", "the preview server (roost serve)");

ROOST_FORWARD_VOID(microhttpd, MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))
ROOST_FORWARD(microhttpd, struct MHD_Response *, MHD_create_response_from_buffer,
              (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
ROOST_FORWARD(microhttpd, struct MHD_Response *, MHD_create_response_from_callback,
              (uint64_t size, size_t block, MHD_ContentReaderCallback read, void *context,
               MHD_ContentReaderFreeCallback free),
              (size, block, read, context, free))
ROOST_FORWARD(microhttpd, enum MHD_Result, MHD_add_response_header,
              (struct MHD_Response *response, const char *header, const char *content),
              (response, header, content))
ROOST_FORWARD_VOID(microhttpd, MHD_destroy_response, (struct MHD_Response *response), (response))
ROOST_FORWARD(microhttpd, enum MHD_Result, MHD_queue_response,
              (struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response),
              (connection, status, response))
ROOST_FORWARD(microhttpd, const char *, MHD_lookup_connection_value,
              (struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key),
              (connection, kind, key))

typedef struct MHD_Daemon *(*start_daemon_function)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                                    MHD_AccessHandlerCallback, void *, ...);

struct MHD_Daemon *roost_mhd_start(unsigned int flags,
                                   int listen_fd,
                                   MHD_AccessHandlerCallback handler,
                                   void *handler_cls,
                                   size_t (*unescape)(void *, struct MHD_Connection *, char *),
                                   unsigned int connection_timeout_seconds) {
  static _Atomic(void *) cache;
  start_daemon_function start =
      (start_daemon_function)roost_shared_library_cached(&microhttpd, "MHD_start_daemon", &cache);
  return start(flags, 0, NULL, NULL, handler, handler_cls,
               MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
               MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
               MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
               MHD_OPTION_END);
}
