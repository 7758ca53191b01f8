#ifndef ROOST_CMICROHTTPD_H
#define ROOST_CMICROHTTPD_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic, which Swift cannot call; this wrapper fixes the options
// Roost's preview server uses. The listening socket is created (and bound) by the caller,
// so a busy port is reported with errno, and port 0 can be resolved with getsockname.
//
// libmicrohttpd is opened on first use (MicroHTTPD.c, CSharedLibrary): every function of it
// Roost calls is defined there, so a function used here and not defined there fails the link.
struct MHD_Daemon *roost_mhd_start(unsigned int flags,
                                   int listen_fd,
                                   MHD_AccessHandlerCallback handler,
                                   void *handler_cls,
                                   size_t (*unescape)(void *, struct MHD_Connection *, char *),
                                   unsigned int connection_timeout_seconds);

static const ssize_t roost_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t roost_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t roost_mhd_size_unknown = MHD_SIZE_UNKNOWN;

#endif
