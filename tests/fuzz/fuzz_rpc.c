// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target "rpc": byte 0 picks the pipe (srvsvc, wkssvc, lsarpc,
 * samr) and a read size; the rest is cut at each 4-byte marker into
 * separate rpc_pipe_write() calls, each followed by reads of what is
 * queued. Seeds (tests/fuzz/corpus/rpc) are bind + request pairs written
 * by the unit tests with RPC_WRITE_CORPUS set.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fake_backend.h"
#include "rpc_pipe.h"

static const uint8_t marker[4] = { 0xf0, 0x9f, 0x94, 0xaa };

static const char *const pipes[] = {
	"srvsvc", "\\PIPE\\wkssvc", "lsarpc", "\\pipe\\SAMR"
};

static void drain(struct rpc_pipe *p, size_t chunk)
{
	static uint8_t buf[8192];
	size_t got;
	bool more = true;

	while (more) {
		if (rpc_pipe_read(p, buf, chunk, &got, &more) || !got)
			break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpc_backend be;
	struct fake_ctx ctx = { .extra_shares = 0 };
	struct rpc_pipe *p;
	size_t chunk, start, i;

	if (size < 1)
		return 0;
	fake_backend_init(&be, &ctx);
	ctx.extra_shares = (data[0] >> 5) * 8;
	p = rpc_pipe_open(pipes[data[0] & 3], &be, "alice");
	if (!p)
		return 0;
	chunk = (data[0] & 4) ? 7 : 8192;
	start = 1;
	for (i = 1; i + sizeof(marker) <= size; i++) {
		if (memcmp(data + i, marker, sizeof(marker)))
			continue;
		rpc_pipe_write(p, data + start, i - start);
		drain(p, chunk);
		start = i + sizeof(marker);
		i = start - 1;
	}
	rpc_pipe_write(p, data + start, size - start);
	drain(p, chunk);
	rpc_pipe_close(p);
	return 0;
}
