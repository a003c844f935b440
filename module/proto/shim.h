/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one place where the protocol library differs between the kernel and
 * user space.  Every other file under proto/ includes only this header (and
 * its siblings), so the same parsers run in ksmbd.ko and, with
 * -DKSMBD_USERSPACE, in host unit tests and libFuzzer targets under
 * ASan/UBSan.
 */
#ifndef KSMBD_PROTO_SHIM_H
#define KSMBD_PROTO_SHIM_H

#ifndef KSMBD_USERSPACE

#ifndef pr_fmt
#define pr_fmt(fmt) "ksmbd: " fmt
#endif

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <asm/unaligned.h>

#else /* KSMBD_USERSPACE */

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;
typedef uint16_t __be16;
typedef uint32_t __be32;

#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __always_unused __attribute__((unused))
#define __maybe_unused __attribute__((unused))
#define fallthrough __attribute__((fallthrough))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define cpu_to_le16(x) ((__le16)(u16)(x))
#define cpu_to_le32(x) ((__le32)(u32)(x))
#define cpu_to_le64(x) ((__le64)(u64)(x))
#define le16_to_cpu(x) ((u16)(__le16)(x))
#define le32_to_cpu(x) ((u32)(__le32)(x))
#define le64_to_cpu(x) ((u64)(__le64)(x))
#define cpu_to_be16(x) ((__be16)__builtin_bswap16((u16)(x)))
#define cpu_to_be32(x) ((__be32)__builtin_bswap32((u32)(x)))
#define be16_to_cpu(x) ((u16)__builtin_bswap16((u16)(x)))
#define be32_to_cpu(x) ((u32)__builtin_bswap32((u32)(x)))
#else
#define cpu_to_le16(x) ((__le16)__builtin_bswap16((u16)(x)))
#define cpu_to_le32(x) ((__le32)__builtin_bswap32((u32)(x)))
#define cpu_to_le64(x) ((__le64)__builtin_bswap64((u64)(x)))
#define le16_to_cpu(x) ((u16)__builtin_bswap16((u16)(x)))
#define le32_to_cpu(x) ((u32)__builtin_bswap32((u32)(x)))
#define le64_to_cpu(x) ((u64)__builtin_bswap64((u64)(x)))
#define cpu_to_be16(x) ((__be16)(u16)(x))
#define cpu_to_be32(x) ((__be32)(u32)(x))
#define be16_to_cpu(x) ((u16)(x))
#define be32_to_cpu(x) ((u32)(x))
#endif

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | (b[1] << 8));
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | ((u32)b[1] << 8) | ((u32)b[2] << 16) |
	       ((u32)b[3] << 24);
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_le32(b) | ((u64)get_unaligned_le32(b + 4) << 32);
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
	b[2] = (u8)(v >> 16);
	b[3] = (u8)(v >> 24);
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned_le32((u32)v, p);
	put_unaligned_le32((u32)(v >> 32), (u8 *)p + 4);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return ((u32)b[0] << 24) | ((u32)b[1] << 16) | ((u32)b[2] << 8) |
	       (u32)b[3];
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

typedef unsigned int gfp_t;
#define GFP_KERNEL 0u
#define GFP_NOFS 0u
#define kmalloc(size, gfp) ((void)(gfp), malloc(size))
#define kzalloc(size, gfp) ((void)(gfp), calloc(1, (size)))
#define kcalloc(n, size, gfp) ((void)(gfp), calloc((n), (size)))
#define kvmalloc(size, gfp) ((void)(gfp), malloc(size))
#define kvzalloc(size, gfp) ((void)(gfp), calloc(1, (size)))
#define kfree(p) free(p)
#define kvfree(p) free(p)

static inline void kfree_sensitive(void *p)
{
	/* Callers size-track their secrets; nothing to wipe without a size. */
	free(p);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* kernel-internal errno, absent from libc */
#endif

#define pr_debug(...) do { } while (0)
#define pr_err(...) do { } while (0)
#define pr_warn(...) do { } while (0)
#define pr_info(...) do { } while (0)

static inline void memzero_explicit(void *p, size_t n)
{
	memset(p, 0, n);
	/* Keeps the compiler from treating the stores as dead. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

#endif /* KSMBD_USERSPACE */

#endif /* KSMBD_PROTO_SHIM_H */
