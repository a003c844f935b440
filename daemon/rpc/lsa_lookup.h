/* SPDX-License-Identifier: GPL-2.0 */
/* lsarpc's translation methods (MS-LSAT 3.1.4.5 - 3.1.4.11). */
#ifndef KSMBD_RPC_LSA_LOOKUP_H
#define KSMBD_RPC_LSA_LOOKUP_H

#include <stdint.h>

#include "rpc_internal.h"

uint32_t lsa_lookup_names(struct rpc_call *c);		/* opnum 14 */
uint32_t lsa_lookup_sids(struct rpc_call *c);		/* opnum 15 */
uint32_t lsa_lookup_sids2(struct rpc_call *c);		/* opnum 57 */
uint32_t lsa_lookup_names2(struct rpc_call *c);		/* opnum 58 */
uint32_t lsa_lookup_names3(struct rpc_call *c);		/* opnum 68 */
uint32_t lsa_lookup_sids3(struct rpc_call *c);		/* opnum 76 */
uint32_t lsa_lookup_names4(struct rpc_call *c);		/* opnum 77 */

#endif
