/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the running ksmbd.mountd through its pid file, which it holds
 * locked (flock) while it runs: a file nobody locks names no daemon, so
 * a stale pid (perhaps reused by another process) is never signalled.
 */
#ifndef KSMBD_PIDFILE_H
#define KSMBD_PIDFILE_H

#include <sys/types.h>

#define KSMBD_PIDFILE_DEFAULT	"/run/ksmbd.lock"

/*
 * Sends @sig to the daemon that holds @path. 0 and *@pid set; -ESRCH when
 * no daemon holds it (or the file does not exist); another -errno when
 * the file cannot be read or the signal cannot be sent.
 */
int ksmbd_daemon_signal(const char *path, int sig, pid_t *pid);

/*
 * Asks a running daemon to reload its configuration and user database
 * after a tool changed them, and says so in one line on stdout. No
 * daemon is not an error (nothing is printed). 0, or 1 after one error
 * line on stderr.
 */
int ksmbd_daemon_reload(const char *prog, const char *path);

#endif
