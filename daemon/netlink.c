// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's netlink socket. libnl resolves the family and builds our
 * messages; incoming messages are walked by hand so that each is checked
 * (sender is the kernel, our family and version, one attribute of the
 * command's type) before a handler sees its payload.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "handlers.h"
#include "netlink.h"
#include "../module/uapi/ksmbd_netlink.h"

#define SOCK_BUF_SZ	(1 << 20)

struct mountd_nl {
	struct nl_sock *sk;
	int family;
};

static int nl_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	case NLE_PERM:
		return -EPERM;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	default:
		return -EIO;
	}
}

struct mountd_nl *mountd_nl_open(int *err)
{
	struct mountd_nl *nl = calloc(1, sizeof(*nl));
	int ret, grp;

	if (!nl) {
		*err = -ENOMEM;
		return NULL;
	}
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = genl_connect(nl->sk);
	if (ret < 0)
		goto err_nl;
	/* Resolve first: libnl's resolver relies on acks and sequence checks. */
	nl->family = genl_ctrl_resolve(nl->sk, KSMBD_GENL_NAME);
	if (nl->family < 0) {
		ret = nl->family;
		goto err_nl;
	}
	grp = genl_ctrl_resolve_grp(nl->sk, "nlctrl", "notify");
	if (grp >= 0 && nl_socket_add_membership(nl->sk, grp) < 0)
		mountd_log(LOG_WARNING, "cannot watch for module unload notices");
	nl_socket_disable_seq_check(nl->sk);
	nl_socket_disable_auto_ack(nl->sk);
	nl_socket_enable_msg_peek(nl->sk);
	nl_socket_set_buffer_size(nl->sk, SOCK_BUF_SZ, SOCK_BUF_SZ);
	ret = nl_socket_set_nonblocking(nl->sk);
	if (ret < 0)
		goto err_nl;
	return nl;

err_nl:
	ret = nl_errno(ret);
	nl_socket_free(nl->sk);
err_free:
	free(nl);
	*err = ret;
	return NULL;
}

void mountd_nl_close(struct mountd_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

int mountd_nl_fd(const struct mountd_nl *nl)
{
	return nl_socket_get_fd(nl->sk);
}

int mountd_nl_send(struct mountd_nl *nl, unsigned int type, const void *data,
		   size_t len)
{
	struct nl_msg *msg;
	int ret;

	msg = nlmsg_alloc_size(NLMSG_HDRLEN + GENL_HDRLEN + nla_total_size(len) +
			       NLMSG_ALIGNTO);
	if (!msg)
		return -ENOMEM;
	ret = -EMSGSIZE;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, 0, type,
			 KSMBD_GENL_VERSION))
		goto out_free;
	if (nla_put(msg, type, len, data) < 0)
		goto out_free;
	ret = nl_send_auto(nl->sk, msg);
	ret = ret < 0 ? nl_errno(ret) : 0;
out_free:
	nlmsg_free(msg);
	return ret;
}

/* nlctrl told us about a family; true when ours went away. */
static int ctrl_says_gone(const struct mountd_nl *nl, struct nlmsghdr *hdr)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(hdr);

	if (!genlmsg_valid_hdr(hdr, 0) || g->cmd != CTRL_CMD_DELFAMILY)
		return 0;
	if (genlmsg_parse(hdr, 0, tb, CTRL_ATTR_MAX, NULL) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_ID])
		return 0;
	return nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == nl->family;
}

static void dispatch(struct nlmsghdr *hdr,
		     mountd_nl_cb cb, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(hdr);
	struct nlattr *a;
	int rem;

	if (!genlmsg_valid_hdr(hdr, 0)) {
		mountd_log(LOG_WARNING, "dropped a truncated message from the module");
		return;
	}
	if (g->version != KSMBD_GENL_VERSION) {
		mountd_log(LOG_WARNING, "dropped event %u: genl version %u, expected %u",
			   g->cmd, g->version, KSMBD_GENL_VERSION);
		return;
	}
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) == g->cmd) {
			cb(arg, g->cmd, nla_data(a), (size_t)nla_len(a));
			return;
		}
	}
	mountd_log(LOG_WARNING, "dropped event %u: no attribute of its type", g->cmd);
}

int mountd_nl_recv(struct mountd_nl *nl, mountd_nl_cb cb, void *arg)
{
	struct sockaddr_nl peer;
	unsigned char *buf = NULL;
	struct nlmsghdr *hdr;
	int n, gone = 0;

	n = nl_recv(nl->sk, &peer, &buf, NULL);
	if (n <= 0) {
		free(buf);
		return n == 0 ? -EAGAIN : nl_errno(n);
	}
	/* Only the kernel (port 0) speaks to us; other senders are ignored. */
	if (peer.nl_pid != 0) {
		mountd_log(LOG_WARNING, "ignored a message from port %u", peer.nl_pid);
		goto out_free;
	}
	for (hdr = (struct nlmsghdr *)buf; nlmsg_ok(hdr, n); hdr = nlmsg_next(hdr, &n)) {
		if (hdr->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = nlmsg_data(hdr);

			if (nlmsg_datalen(hdr) >= (int)sizeof(*e) && e->error)
				mountd_log(LOG_WARNING, "the module refused a message: %s",
					   strerror(-e->error));
		} else if (hdr->nlmsg_type == GENL_ID_CTRL) {
			gone |= ctrl_says_gone(nl, hdr);
		} else if (hdr->nlmsg_type == nl->family) {
			dispatch(hdr, cb, arg);
		}
	}
out_free:
	free(buf);
	return gone ? -ENODEV : 0;
}

int mountd_nl_family_present(const struct mountd_nl *nl)
{
	struct nl_sock *sk = nl_socket_alloc();
	int id = -1;

	if (!sk)
		return 1;	/* cannot tell: assume nothing changed */
	if (genl_connect(sk) >= 0)
		id = genl_ctrl_resolve(sk, KSMBD_GENL_NAME);
	nl_socket_free(sk);
	return id == nl->family;
}
