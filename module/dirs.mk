# SPDX-License-Identifier: GPL-2.0-or-later
# The module's layer folders (module/README.md, "Layers"). Sources include
# each other's headers by file name; these are the include paths that find
# them. Read by module/Kbuild, bpf/Kbuild and the host builds' .mk files.
KSMBD_MODULE_DIRS := transport smb2 fs conn core
# Host builds (unit tests, fuzzing) of module sources: the same paths.
KSMBD_MODULE_INC = -I$(TOP)/module $(KSMBD_MODULE_DIRS:%=-I$(TOP)/module/%)
