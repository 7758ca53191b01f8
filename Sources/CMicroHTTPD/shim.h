#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic, which Swift cannot call; this wrapper fixes the options
// Roost's preview server uses. The listening socket is created (and bound) by the caller,
// so a busy port is reported with errno, and port 0 can be resolved with getsockname.
static inline struct MHD_Daemon *roost_mhd_start(unsigned int flags,
                                                 int listen_fd,
                                                 MHD_AccessHandlerCallback handler,
                                                 void *handler_cls,
                                                 size_t (*unescape)(void *, struct MHD_Connection *, char *),
                                                 unsigned int connection_timeout_seconds) {
  return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                          MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
                          MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
                          MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                          MHD_OPTION_END);
}

static const ssize_t roost_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t roost_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t roost_mhd_size_unknown = MHD_SIZE_UNKNOWN;
