/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The open-file table: every handle a client holds (CREATE's FileId).
 *
 * Identity: the volatile id is the key of the table; the persistent id is a
 * second, never reused number that must match too (MS-SMB2 3.3.5.9 draws
 * both). A handle belongs to one session and one tree: a lookup with ids
 * from another session or tree finds nothing, so ids leak nothing.
 *
 * Lifetime: the table holds one reference from CREATE until CLOSE (or tree
 * disconnect / logoff / connection drop, which unlist every handle of that
 * tree or session). Each lookup returns a counted reference, dropped with
 * ksmbd_file_put(). The last put closes the struct file, runs
 * delete-on-close as the opener and releases the credentials, so a handler
 * that still holds a handle after a concurrent CLOSE or TREE_DISCONNECT
 * keeps a valid object; it just cannot be found any more.
 *
 * Share modes: every open of an inode is on that inode's entry in a global
 * table; CREATE checks its access and share access against the others
 * there (STATUS_SHARING_VIOLATION), and delete-on-close is decided per
 * inode at its last close.
 */
#ifndef KSMBD_FILE_H
#define KSMBD_FILE_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/stat.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "proto/ksmbd_errno.h"

struct ksmbd_caller;
struct ksmbd_durable;
struct ksmbd_inode;
struct ksmbd_lock_file;
struct ksmbd_oplock;
struct ksmbd_session;
struct ksmbd_tree;
struct notify_watch;

/* MS-SMB2 2.2.14.1: the FileId a related compound element inherits. */
#define KSMBD_FILE_ID_COMPOUND	0xffffffffffffffffULL

enum ksmbd_file_kind {
	KSMBD_FILE_REGULAR,
	KSMBD_FILE_DIRECTORY,
	KSMBD_FILE_PIPE,
};

/* LockSequenceIndex values a handle remembers (MS-SMB2 3.3.5.14). */
#define KSMBD_FILE_LOCK_SEQS		64

struct ksmbd_file {
	refcount_t refs;
	u64 persistent_id;
	u64 volatile_id;
	u64 session_id;			/* owner: only these may look it up */
	u32 tree_id;
	enum ksmbd_file_kind kind;
	/*
	 * Its slots under the open-file bounds (file_limit.c): the session
	 * whose count (and its connection's) holds it, not counted, NULL
	 * while it is disconnected; the server's slot in slots.
	 */
	struct ksmbd_session *charged;
	unsigned long slots;

	/*
	 * The opened file; NULL for pipes. Opened O_PATH when no data
	 * access was granted, so attribute-only opens need no read or
	 * write permission.
	 */
	struct file *filp;
	struct ksmbd_tree *tree;	/* counted: share config and root stay valid */
	struct path root;		/* the share root; its own reference */
	const struct cred *cred;	/* the session user's, counted */
	/*
	 * Share-relative, '/'-separated, "" = root. A rename replaces it
	 * under name_lock; read it through ksmbd_file_name_dup() unless the
	 * handle cannot be renamed concurrently.
	 */
	char *name;
	spinlock_t name_lock;
	/*
	 * LOCK replay detection (MS-SMB2 3.3.5.14; durable.c): per
	 * LockSequenceIndex 1..64 the last LockSequenceNumber + 1, 0 when
	 * not valid. Kept for durable handles and, on connections that
	 * negotiated multichannel, for every handle.
	 */
	spinlock_t lock_seq_lock;
	u8 lock_seq[KSMBD_FILE_LOCK_SEQS];
	/*
	 * MS-SMB2 3.3.5.2.10 (3.x): Open.ChannelSequence, the requests
	 * counted in under it (req_count) and those still out under an
	 * older one (pre_req_count); chan_epoch counts its changes, so a
	 * request knows which count it leaves. Under chan_seq_lock.
	 */
	spinlock_t chan_seq_lock;
	u16 chan_seq;
	u32 chan_epoch;
	u32 req_count, pre_req_count;
	/*
	 * A named stream's extended attribute (streams.h), or NULL for the
	 * file itself. A buffer of XATTR_NAME_MAX + 1 bytes, set at open and
	 * rewritten in place by a stream rename (ksmbd_file_stream_renamed).
	 */
	char *stream;

	u32 daccess;			/* granted FILE_* access (generic bits mapped) */
	u32 share_access;		/* FILE_SHARE_* */
	u32 create_options;		/* FILE_* create options as requested */
	/*
	 * FilePositionInformation (CurrentByteOffset) and FileModeInformation
	 * of this open: set by SET_INFO, the position also moved past each
	 * READ and WRITE as for a synchronous-I/O open (MS-FSA 2.1.5.2/3).
	 * READ_ONCE/WRITE_ONCE: requests on one handle may run at once.
	 */
	u64 position;
	u32 mode;
	/* CreateAction of the CREATE that made it: a replay answers it. */
	u32 create_action;
	/*
	 * Open.IsReplayEligible (MS-SMB2 3.3.5.9.10): made by a CREATE with
	 * DH2Q, durable or not, a replay of which finds it by these two
	 * until another request uses the handle (ksmbd_file_lookup clears
	 * it; smbtorture smb2.replay.replay6). The guids are set before
	 * replay_eligible (release/acquire).
	 */
	bool replay_eligible;
	u8 replay_create_guid[16];
	u8 replay_client_guid[16];
	/* this open set a ChangeTime (ksmbd_file_set_times) */
	bool user_set_change_time;
	u32 tree_flags;			/* KSMBD_FILE_TREE_* copied at open */

	/* Pipes on IPC$ */
	u32 pipe_id;
	u32 pipe_flags;			/* the service's KSMBD_RPC_*_METHOD_INVOKE */

	/*
	 * QUERY_DIRECTORY's enumeration state: owned by smb2_query_dir, freed
	 * at the last put through dir_state_free; dir_lock serialises
	 * enumerations on one handle.
	 */
	struct mutex dir_lock;
	void *dir_state;
	void (*dir_state_free)(void *state);

	/* Share-mode entry of the inode (not for pipes); file.c's lock. */
	struct ksmbd_inode *ino;
	struct list_head ino_node;
	bool delete_on_close;		/* this handle asks for it (under file.c's lock) */
	/* lock.c's, under the file's ksmbd_lock_file.sem */
	bool brl_closed;		/* takes no more byte-range locks */
	u32 nr_brl;
	struct list_head brl_locks;	/* this open's locks, oldest first */
	/* smb2_notify.c's CHANGE_NOTIFY watch, under dir_lock. */
	struct notify_watch *notify;
	bool notify_closed;

	/* Its oplock or lease owner, or NULL; oplock.c's lock (oplock.h). */
	struct ksmbd_oplock *oplock;
	/*
	 * Directory leases (oplock_dir.c): the lease v2 context's
	 * ParentLeaseKey and the ClientGuid it belongs to, set at open;
	 * entry_changed: data or size changed through this handle, which
	 * breaks the parent's leases at its close.
	 */
	bool has_parent_key;
	bool entry_changed;
	u8 parent_key[16];
	u8 parent_guid[16];

	/*
	 * Durable handle state (durable.h), set once under the table's lock
	 * after the grant; freed at the last put. A disconnected durable
	 * handle stays in the table with session_id and tree_id 0 (no
	 * lookup matches) until it is reconnected or scavenged.
	 */
	struct ksmbd_durable *durable;

	/*
	 * MS-SMB2 3.3.5.9.13 Open.AppInstanceId, with the ClientGuid of the
	 * connection that made the open; set before the open is published.
	 */
	bool has_app_instance;
	u8 app_instance_id[16];
	u8 app_client_guid[16];

	/*
	 * AllocationSize reserved past end of file through this handle
	 * (file_alloc.c): up to alloc_end, alloc_charge bytes charged to
	 * alloc_conn (counted; NULL when nothing is). Under alloc_lock.
	 */
	struct mutex alloc_lock;
	struct ksmbd_conn *alloc_conn;
	u64 alloc_charge;
	loff_t alloc_end;
};

/* ksmbd_file.tree_flags */
#define KSMBD_FILE_TREE_WRITABLE	0x1	/* tree and share allow writes */
#define KSMBD_FILE_TREE_HIDE_DOT	0x2	/* "hide dot files" */
/* READONLY lives in user.DOSATTRIB, not the mode ("acl xattr" shares) */
#define KSMBD_FILE_TREE_RO_XATTR	0x4

/*
 * Where the descriptor decides the mode (and DOS attributes are stored),
 * a mode without write bits is the descriptor's, not READONLY: that is
 * kept in user.DOSATTRIB and enforced by CREATE and SET_INFO.
 */
bool ksmbd_tree_ro_in_xattr(const struct ksmbd_tree *tree);

/*
 * Look up a handle of the request's session and tree, with a reference.
 * A persistent/volatile pair of all ones in a related compound element
 * means the handle of the previous CREATE in that compound. NULL when no
 * such handle exists (answer STATUS_FILE_CLOSED, or INVALID_PARAMETER for
 * a related element with none).
 */
struct ksmbd_file *ksmbd_file_lookup(struct ksmbd_caller *caller,
				     u64 persistent_id, u64 volatile_id);
/*
 * A handle of the caller's session in any of its trees (a copychunk's
 * resume key, MS-SMB2 3.3.5.15.6: the source may be on another share the
 * session has connected); no compound FileId. NULL when there is none.
 */
struct ksmbd_file *ksmbd_file_lookup_session(struct ksmbd_caller *caller,
					     u64 persistent_id,
					     u64 volatile_id);
/*
 * The session's regular-file handle exists and the len bytes at offset
 * are in the page cache: a READ of them will not wait for the disk. No
 * access is checked (the READ itself does): a scheduling hint only.
 */
bool ksmbd_file_read_cached(u64 session_id, u64 persistent_id,
			    u64 volatile_id, u64 offset, u32 len);
void ksmbd_file_get(struct ksmbd_file *fp);
void ksmbd_file_put(struct ksmbd_file *fp);

/*
 * ChannelSequence of a request on fp (MS-SMB2 3.3.5.2.10): the same as
 * the open's, or newer (which becomes the open's, the requests out under
 * the old one counted apart), counts the request in and gives *epoch for
 * ksmbd_file_chan_seq_out(); a replay while requests of an older one are
 * still out, or an older one, is refused (-EAGAIN) for a request that
 * modifies the open; one that does not (a READ) goes on uncounted (1).
 */
int ksmbd_file_chan_seq_in(struct ksmbd_file *fp, u16 seq, bool replay,
			   bool modify, u32 *epoch);
void ksmbd_file_chan_seq_out(struct ksmbd_file *fp, u32 epoch);

/*
 * Set or clear delete-on-close on a handle (SET_INFO
 * FileDispositionInformation, CREATE's FILE_DELETE_ON_CLOSE). -EACCES
 * without DELETE access; -ENOTEMPTY for a non-empty directory.
 */
int ksmbd_file_set_delete_on_close(struct ksmbd_file *fp, bool on);
/* Any open of this handle's inode asked for delete-on-close. */
bool ksmbd_file_delete_pending(struct ksmbd_file *fp);

/* A copy of fp->name (kfree it), or NULL without memory. */
char *ksmbd_file_name_dup(struct ksmbd_file *fp, gfp_t gfp);
/*
 * The name as stored (the case on disk; FileNormalizedNameInformation),
 * or fp->name's copy when the file has none (unlinked); kfree it.
 */
char *ksmbd_file_stored_name(struct ksmbd_file *fp);
/* Replace fp->name with a copy of name (after a rename). */
int ksmbd_file_name_set(struct ksmbd_file *fp, const char *name);

/*
 * Renames (smbtorture smb2.rename): the rename of a child acts as an
 * open of its directory for DELETE sharing READ and WRITE, so an open of
 * the directory that holds DELETE or withholds FILE_SHARE_DELETE refuses
 * it (SHARING_VIOLATION); and a directory with an open file anywhere
 * below it cannot be renamed (ACCESS_DENIED). The first rule counts only
 * the renaming session's own opens of the directory, as Samba counts only
 * those of its client's process: another client watching the directory
 * (smb2.notify-inotify.inotify-rename) does not stop renames inside it.
 */
bool ksmbd_file_rename_blocked_by_parent(struct inode *dir, u64 session_id);
bool ksmbd_file_opens_below(struct dentry *dir);

/*
 * MS-FSA 2.1.5.1.1/2.1.5.14.3: a READONLY file (no write bit in its mode)
 * cannot be deleted on close (-KSMBD_ECANNOT_DELETE).
 */
static inline bool ksmbd_mode_readonly(umode_t mode)
{
	return S_ISREG(mode) && !(mode & 0222);
}

/*
 * Named streams (streams.h): after the stream of fp was renamed to xname,
 * every open of it takes the new name. busy: the stream xname of fp's
 * file is open.
 */
void ksmbd_file_stream_renamed(struct ksmbd_file *fp, const char *xname);
bool ksmbd_file_stream_busy(struct ksmbd_file *fp, const char *xname);

/*
 * The byte-range lock state of fp's file (lock.h), NULL for a pipe or a
 * handle that has not joined the share modes. Valid while fp is.
 */
struct ksmbd_lock_file *ksmbd_file_lock_state(struct ksmbd_file *fp);

/* Number of open handles of the inode behind fp (for FILE_STANDARD_INFO). */
u32 ksmbd_file_inode_open_count(struct ksmbd_file *fp);
/* Of those (fp included once it joined), the ones granted any of rights. */
u32 ksmbd_file_inode_opens_with(struct ksmbd_file *fp, u32 rights);

/* FILE_ATTRIBUTE_* of an open file: directory/normal/readonly, hidden dot files. */
u32 ksmbd_file_dos_attrs(struct ksmbd_file *fp, const struct kstat *st);

/*
 * CreationTime and ChangeTime a client set with SET_INFO that the file
 * system cannot keep (Linux sets no ctime; a creation time needs
 * user.DOSATTRIB, which not every file system or share has). They are held
 * on the inode's share-mode entry, so while any handle on the file is
 * open. A set ChangeTime stands until the file changes other than through
 * SET_INFO on the open that set it (MS-FSA 2.1.5.14.2, UserSetChangeTime);
 * 0 leaves a time as it is.
 */
struct ksmbd_fattr;
void ksmbd_file_set_times(struct ksmbd_file *fp, u64 create_time,
			  u64 change_time);
/* After a SET_INFO through fp changed the file: st is its new stat. */
void ksmbd_file_keep_change_time(struct ksmbd_file *fp, const struct kstat *st);
/* Report the set times in a (st: the file's stat), by handle or by stat. */
void ksmbd_file_apply_times(struct ksmbd_file *fp, const struct kstat *st,
			    struct ksmbd_fattr *a);
void ksmbd_inode_apply_times(const struct kstat *st, struct ksmbd_fattr *a);
/* Unix time to a Windows FILETIME (100 ns since 1601). */
u64 ksmbd_time_to_filetime(struct timespec64 ts);
/* Allocation size as SMB reports it: blocks * 512. */
static inline u64 ksmbd_file_alloc_size(const struct kstat *st)
{
	return (u64)st->blocks << 9;
}

/*
 * AllocationSize size (CREATE's context, FileAllocationInformation) at
 * or past end of file: reserve the blocks past it, as far as conn's
 * "max allocation reservation" has room (a request over it reserves what
 * fits and still succeeds: allocation is a hint). An error of the
 * reservation itself (-ENOSPC, -EOPNOTSUPP) is returned.
 */
struct ksmbd_conn;
int ksmbd_file_reserve(struct ksmbd_file *fp, struct ksmbd_conn *conn,
		       u64 size);
/*
 * Give back what fp reserved that is still past end of file, and its
 * connection's charge: when the handle closes (its last put), and when a
 * durable handle leaves its connection.
 */
void ksmbd_file_unreserve(struct ksmbd_file *fp);
/* Bytes held reserved past end of file on the server (stats). */
s64 ksmbd_file_reserved_all(void);

/* ---- Used by smb2_create.c and the teardown hooks ---- */

/*
 * A new handle owned by the session/tree of caller; not in the table yet.
 * It already holds its slots under the open-file bounds (below):
 * ERR_PTR(-EMFILE) over one of them, -ENOMEM without memory. Made before
 * anything is created on disk, so a refusal changes nothing.
 */
struct ksmbd_file *ksmbd_file_alloc(struct ksmbd_caller *caller,
				    enum ksmbd_file_kind kind);

/*
 * Bounds (file_limit.c): open handles per session ("max open files per
 * session"), per connection ("max open files per connection": every
 * session set up on it, whichever channel a handle was opened through)
 * and on the server ("max open files"). Pipes count like files. A handle
 * holds its slots from ksmbd_file_alloc() until it leaves the table (or
 * its last put, unpublished). A disconnected durable handle belongs to no
 * session: it gives back its session's and connection's slots when it is
 * disconnected and keeps only the server's; a reconnect charges the
 * reconnecting session (and its connection) first and is refused over
 * their bounds. Over a bound: -EMFILE, counted in stats
 * (open_files_refused_per_session / _per_connection) and traced.
 */
int ksmbd_file_charge(struct ksmbd_file *fp, struct ksmbd_caller *caller);
int ksmbd_file_charge_session(struct ksmbd_file *fp,
			      struct ksmbd_caller *caller);
/* Give back what fp holds; safe to repeat, and under the table's lock. */
void ksmbd_file_uncharge(struct ksmbd_file *fp);
void ksmbd_file_uncharge_session(struct ksmbd_file *fp);
/*
 * Join the inode's share-mode entry, checking the open against the
 * others there: -EBUSY for a sharing violation, -KSMBD_EDELETE_PENDING
 * when a delete is pending on the inode. Done before anything changes
 * the file (e.g. the truncation of OVERWRITE). Left again by the last put.
 */
int ksmbd_file_share_join(struct ksmbd_file *fp);
/*
 * Enter the table under fresh ids (fp->persistent_id / volatile_id). The
 * table takes over the caller's reference: take another one first if the
 * handle is still needed. -EMFILE when the table has no free id;
 * -KSMBD_ENETNAME_DELETED when the tree or session was torn down
 * meanwhile (its sweep of the table may already have run, so the handle
 * is not left in it).
 * On failure the caller's reference is left with the caller.
 */
int ksmbd_file_publish(struct ksmbd_file *fp);
/* CLOSE: unlist and return the table's reference (NULL if already gone). */
struct ksmbd_file *ksmbd_file_unpublish(struct ksmbd_caller *caller,
					u64 persistent_id, u64 volatile_id);

/* ---- Durable handles (durable.c); the table's side is in file.c ---- */

/* Mark fp durable with d (taken over); false if it already was. */
bool ksmbd_file_durable_set(struct ksmbd_file *fp, struct ksmbd_durable *d);
/*
 * Take a disconnected durable handle out of reach of the scavenger and
 * of other reconnects: the handle with these ids, with a reference. Undo
 * with ksmbd_file_durable_unclaim() or finish with
 * ksmbd_file_durable_attach(). Otherwise an ERR_PTR: -ENOENT (no such
 * durable handle), -EISCONN (still attached to session *owner), -EBUSY
 * (disconnected, but a request of its dead connection still uses it, or
 * the scavenger or another reconnect has it claimed).
 */
struct ksmbd_file *ksmbd_file_durable_claim(u64 persistent_id,
					    u64 volatile_id, u64 *owner);
/*
 * Waiting for a durable handle's holder to let go: take the sequence
 * before ksmbd_file_durable_claim(), then wait (at most timeout jiffies;
 * 0 when it ran out) until a durable handle changed hands since.
 */
unsigned int ksmbd_file_durable_seq(void);
long ksmbd_file_durable_wait(unsigned int seen, long timeout);
void ksmbd_file_durable_unclaim(struct ksmbd_file *fp);
/* A claimed handle now belongs to the request's session and tree. */
void ksmbd_file_durable_attach(struct ksmbd_file *fp,
			       struct ksmbd_caller *caller);
/*
 * The scavenger's walk over the table (durable.c). From *index on, the
 * next disconnected handle pick() wants, claimed (BUSY, with a
 * reference; *index is its slot), or NULL at the end. pick() runs under
 * the table's lock; KSMBD_DH_CLAIM_BUSY also takes an orphan a request
 * of its dead connection still uses (only to close it). *left counts
 * what a later pass must see again: disconnected handles not claimed
 * and handles a reconnect holds (a failed one gives them back).
 */
enum ksmbd_durable_pick {
	KSMBD_DH_SKIP,
	KSMBD_DH_CLAIM,
	KSMBD_DH_CLAIM_BUSY,
};

struct ksmbd_file *
ksmbd_file_durable_next(unsigned long *index,
			enum ksmbd_durable_pick (*pick)(const struct ksmbd_file *fp,
							void *arg),
			void *arg, u32 *left);
/* Erase a claimed handle at slot index and close it as CLOSE does. */
void ksmbd_file_durable_close(struct ksmbd_file *fp, unsigned long index);
/*
 * A claimed orphan whose oplock owner has moved away: let go of its old
 * tree (and reservation), mark it detached and drop the claim.
 */
void ksmbd_file_durable_detach(struct ksmbd_file *fp);
/*
 * Before an open of fp's inode breaks caching: close the disconnected
 * durable handles of that inode it would break (MS-SMB2 3.3.4.6: a break
 * to an open without a connection closes it). Returns how many.
 */
u32 ksmbd_file_durable_purge(struct ksmbd_file *fp, bool overwrite);

/*
 * What the objects that hang state on a handle (byte-range locks,
 * CHANGE_NOTIFY, oplocks and leases) do when it goes: registered once at
 * module load (main.c) and called in registration order, so that the
 * table names none of them.
 */
struct ksmbd_file_hooks {
	struct list_head node;
	/* Out of the table: end what waits on the handle. */
	void (*unlisted)(struct ksmbd_file *fp);
	/*
	 * The last reference, after the handle left its share-mode entry;
	 * deleted: that entry was delete-pending.
	 */
	void (*released)(struct ksmbd_file *fp, bool deleted);
	/* Then, once a delete on close ran: removed says the file went. */
	void (*closed)(struct ksmbd_file *fp, bool removed);
};

void ksmbd_file_hooks_register(struct ksmbd_file_hooks *h);

/*
 * Delete on close, when the last reference goes: remove the file with its
 * streams, or the one stream fp opened. The VFS's (vfs.c), registered at
 * load (main.c's objects_init()) so that the table names no VFS call.
 */
struct ksmbd_file_store {
	int (*remove_file)(struct ksmbd_file *fp);
	int (*remove)(struct ksmbd_file *fp);
};

void ksmbd_file_store_register(const struct ksmbd_file_store *s);
/* Registered at load, before any handle exists (durable.c's). */
struct ksmbd_durable_policy;
void ksmbd_file_durable_policy(const struct ksmbd_durable_policy *p);
/* An attached durable handle of this client with this CreateGuid (replay). */
/*
 * MS-SMB2 3.3.5.9.13: close (3.3.4.17) every open of the share at root
 * named name with this AppInstanceId made by a client other than
 * client_guid. Only the same user's: an application instance is one
 * user's program failing over, and another user's open is never closed
 * for a request of ours. Handles busy with a reconnect are left alone.
 * Called once the new open is authorized.
 */
void ksmbd_file_close_app_instance(const u8 *app_id, const u8 *client_guid,
				   kuid_t uid, const struct path *root,
				   const char *name);
/* Make fp findable by a replay of the DH2Q CREATE that made it. */
void ksmbd_file_set_replay_guid(struct ksmbd_file *fp, const u8 *create_guid,
				const u8 *client_guid);
struct ksmbd_file *ksmbd_file_durable_find_guid(const u8 *create_guid,
						const u8 *client_guid);

/*
 * Teardown: close every file opened through the tree or session (what
 * main.c registers as struct ksmbd_tree_hooks / ksmbd_session_hooks).
 */
void ksmbd_file_close_tree(struct ksmbd_tree *tree);
void ksmbd_file_close_session(struct ksmbd_session *sess);

#endif
