#!/bin/bash
# vm: --server --timeout 900
# In make check-full: smb2-kerberos.sh with all six of smbtorture's
# session.expire* tests (make check runs expire1n and expire2s; the six
# take about three minutes under TCG).
KRB5_EXPIRE_ALL=1
. "$VM_TOP/tests/vm/cases/smb2-kerberos.sh"
