// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: a SESSION_SETUP security blob (NTLMSSP, or Kerberos
 * detection: proto/spnego_krb5.c).  Parsed tokens are re-encoded
 * as the server would answer and must parse back to the same token.
 */
#include "proto/spnego.h"
#include "proto/spnego_krb5.h"

#include <stdlib.h>

static u8 out[70000];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksmbd_spnego_token t, back;
	u32 len;

	if (size > 65536 || ksmbd_spnego_parse(data, (u32)size, &t))
		return 0;
	if (t.mech_token.len && (t.mech_token.p < data ||
				 t.mech_token.p + t.mech_token.len > data + size))
		abort();
	(void)ksmbd_spnego_offers(&t, KSMBD_MECH_NTLMSSP, NULL);
	/* Kerberos detection reads only inside the mechToken. */
	if (ksmbd_spnego_krb5_ap_req(&t) && t.mech_token.len < 4)
		abort();
	if (ksmbd_spnego_build_resp(KSMBD_SPNEGO_ACCEPT_INCOMPLETE, true,
				    t.mech_token.p, t.mech_token.len,
				    t.mech_list_mic.p, t.mech_list_mic.len,
				    out, sizeof(out), &len))
		abort();
	if (ksmbd_spnego_parse(out, len, &back) ||
	    back.mech_token.len != t.mech_token.len ||
	    (t.mech_token.len &&
	     memcmp(back.mech_token.p, t.mech_token.p, t.mech_token.len)))
		abort();
	return 0;
}
