#!/usr/bin/python3
"""powerfs: an in-memory FUSE filesystem that loses what was not synced when the power is cut (for tests).

Usage: /usr/bin/python3 powerfs.py MOUNTPOINT     (Debian: apt-get install fuse python3-fusepy)

What it models (docs/files-on-disk.md, "The power-loss test", says the same):

- File data. Every file has a durable image and the writes and truncations made since its last sync. fsync and
  fdatasync of the file (FUSE_FSYNC, either flavour) make its current data and size durable; nothing else does
  (closing a file, or fsyncing another file, does not). Metadata other than the size (mode, times) is not modelled.
- Names. Every directory has durable entries and current entries. Creating, unlinking, renaming a file or making
  or removing a directory changes the current entries of the directories involved; fsync of a directory
  (FUSE_FSYNCDIR) makes that directory's current entries durable. So a new file whose directory was never synced
  disappears at a cut even if the file itself was synced, and an unsynced rename or unlink is undone: the strict
  POSIX reading, harsher than ext4 or XFS, which usually persist such changes with the next journal commit.
- A power cut (`mkdir MOUNTPOINT/.power-cut`) puts every directory back to its durable entries and every file
  reachable from them back to its durable image; files no longer reachable are gone; a file whose name survived
  but whose data was never synced is empty. With `mkdir MOUNTPOINT/.power-cut-torn-SEED`, each unsynced write or
  truncation of each file survives or not at random (seeded), applied in the order it was made: the disk wrote some
  of what was in flight, in any order (each write whole: writes are not torn within themselves). Names are cut
  as above in both modes. Each cut prints one JSON line on stdout: what was dropped.
- The processes using the files must be gone before the cut (the test SIGKILLs them first): a power cut stops
  them too. The kernel's page cache is not a second copy here: the mount uses no writeback cache, data is
  re-read at every open (no keep_cache), and attributes and names are not cached (timeouts of 0).
- POSIX locks are left to the kernel (no lock operation), which is exact for processes on this machine; mmap works
  (no direct_io), so SQLite's WAL index (-shm) behaves as on a local disk.

It exits (unmounting) when its standard input closes, so a test that dies leaves no mount behind.
"""

import errno
import json
import os
import random
import stat
import subprocess
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations

PAGE = 4096
CUT = '.power-cut'


class File:
    def __init__(self, ino, mode):
        self.ino = ino
        self.mode = mode
        self.times = time.time()
        self.durable = {}  # page index -> bytes, the durable image
        self.durable_size = 0
        self.pages = {}  # page index -> bytearray, written since the last sync
        self.size = 0
        self.floor = 0  # the smallest size since the last sync: durable pages from here on are no longer there
        self.ops = []  # ('w', offset, bytes) | ('t', size), since the last sync

    def _page(self, i):
        p = self.pages.get(i)
        if p is not None:
            return p
        if i * PAGE < self.floor and i in self.durable:
            return self.durable[i]
        return None

    def read(self, offset, size):
        end = min(self.size, offset + size)
        out = bytearray()
        pos = offset
        while pos < end:
            i, o = divmod(pos, PAGE)
            n = min(PAGE - o, end - pos)
            p = self._page(i)  # pages are always PAGE bytes long
            out += p[o:o + n] if p is not None else bytes(n)
            pos += n
        return bytes(out)

    def _write(self, offset, data):
        pos = 0
        while pos < len(data):
            i, o = divmod(offset + pos, PAGE)
            n = min(PAGE - o, len(data) - pos)
            old = self._page(i)
            p = bytearray(old) if old is not None else bytearray()
            if len(p) < PAGE:
                p += bytes(PAGE - len(p))
            p[o:o + n] = data[pos:pos + n]
            self.pages[i] = p
            pos += n
        self.size = max(self.size, offset + len(data))

    def _truncate(self, size):
        if size < self.size:
            i, o = divmod(size, PAGE)
            if o:
                old = self._page(i)
                p = bytearray(old) if old is not None else bytearray(PAGE)
                p[o:] = bytes(len(p) - o)
                self.pages[i] = p
            for k in [k for k in self.pages if k * PAGE >= size and not (k == i and o)]:
                del self.pages[k]
            self.floor = min(self.floor, size)
        self.size = size

    def write(self, offset, data):
        self._write(offset, data)
        self.ops.append(('w', offset, bytes(data)))

    def truncate(self, size):
        self._truncate(size)
        self.ops.append(('t', size))

    def sync(self):
        for k in [k for k in self.durable if k * PAGE >= self.floor and k not in self.pages]:
            del self.durable[k]
        for k, p in self.pages.items():
            self.durable[k] = bytes(p)
        for k in [k for k in self.durable if k * PAGE >= self.size]:
            del self.durable[k]
        self.durable_size = self.size
        self.pages = {}
        self.floor = self.size
        self.ops = []

    def cut(self, rng):
        """Back to the durable image, plus (torn mode) a random subset of the unsynced operations."""
        ops, self.ops = self.ops, []
        self.pages = {}
        self.size = self.floor = self.durable_size
        dropped = dropped_bytes = 0
        for op in ops:
            if rng is None or rng.random() >= 0.5:
                dropped += 1
                dropped_bytes += len(op[2]) if op[0] == 'w' else 0
            elif op[0] == 'w':
                self._write(op[1], op[2])
            else:
                self._truncate(op[1])
        self.sync()
        return dropped, dropped_bytes


class Dir:
    def __init__(self, ino, mode):
        self.ino = ino
        self.mode = mode
        self.times = time.time()
        self.entries = {}
        self.durable = {}

    def sync(self):
        self.durable = dict(self.entries)


class PowerFS(Operations):
    use_ns = False

    def __init__(self):
        self.next_ino = 1
        self.root = Dir(self._ino(), stat.S_IFDIR | 0o755)
        self.fds = {}
        self.next_fh = 1
        self.cuts = 0

    def _ino(self):
        self.next_ino += 1
        return self.next_ino

    def _lookup(self, path):
        node = self.root
        for part in [p for p in path.split('/') if p]:
            if not isinstance(node, Dir) or part not in node.entries:
                raise FuseOSError(errno.ENOENT)
            node = node.entries[part]
        return node

    def _parent(self, path):
        head, name = os.path.split(path.rstrip('/'))
        parent = self._lookup(head or '/')
        if not isinstance(parent, Dir):
            raise FuseOSError(errno.ENOTDIR)
        return parent, name

    def _node(self, path, fh):
        return self.fds.get(fh) if fh else self._lookup(path)

    # --- the power cut -------------------------------------------------------------------------------------------
    def _cut(self, seed):
        rng = random.Random(seed) if seed is not None else None
        stats = {'cut': self.cuts + 1, 'mode': 'torn' if rng else 'lose-all', 'entries_undone': 0,
                 'files': 0, 'writes_dropped': 0, 'bytes_dropped': 0}
        seen = set()

        def walk(d):
            undone = {k for k in set(d.entries) | set(d.durable) if d.entries.get(k) is not d.durable.get(k)}
            stats['entries_undone'] += len(undone)
            d.entries = dict(d.durable)
            for child in d.entries.values():
                if id(child) in seen:
                    continue
                seen.add(id(child))
                if isinstance(child, Dir):
                    walk(child)
                else:
                    dropped, size = child.cut(rng)
                    stats['files'] += 1
                    stats['writes_dropped'] += dropped
                    stats['bytes_dropped'] += size

        walk(self.root)
        self.fds = {}
        self.cuts += 1
        print(json.dumps(stats), flush=True)

    # --- attributes --------------------------------------------------------------------------------------------
    def getattr(self, path, fh=None):
        node = self._node(path, fh) or self._lookup(path)
        if isinstance(node, Dir):
            return dict(st_mode=node.mode, st_nlink=2, st_ino=node.ino, st_size=4096, st_atime=node.times,
                        st_mtime=node.times, st_ctime=node.times, st_uid=os.getuid(), st_gid=os.getgid())
        return dict(st_mode=node.mode, st_nlink=1, st_ino=node.ino, st_size=node.size,
                    st_blocks=(node.size + 511) // 512, st_atime=node.times, st_mtime=node.times,
                    st_ctime=node.times, st_uid=os.getuid(), st_gid=os.getgid())

    def chmod(self, path, mode):
        node = self._lookup(path)
        node.mode = (node.mode & ~0o7777) | (mode & 0o7777)

    def chown(self, path, uid, gid):
        self._lookup(path)

    def utimens(self, path, times=None):
        self._lookup(path).times = time.time()

    def statfs(self, path):
        return dict(f_bsize=PAGE, f_frsize=PAGE, f_blocks=1 << 20, f_bfree=1 << 19, f_bavail=1 << 19,
                    f_files=1 << 20, f_ffree=1 << 19, f_namemax=255)

    # --- names -------------------------------------------------------------------------------------------------
    def readdir(self, path, fh):
        node = self._lookup(path)
        if not isinstance(node, Dir):
            raise FuseOSError(errno.ENOTDIR)
        return ['.', '..'] + sorted(node.entries)

    def mkdir(self, path, mode):
        parent, name = self._parent(path)
        if parent is self.root and (name == CUT or name.startswith(CUT + '-torn-')):
            self._cut(int(name[len(CUT + '-torn-'):]) if name != CUT else None)
            raise FuseOSError(errno.EEXIST)  # nothing is made: the caller only wanted the cut
        if name in parent.entries:
            raise FuseOSError(errno.EEXIST)
        parent.entries[name] = Dir(self._ino(), stat.S_IFDIR | (mode & 0o7777))

    def rmdir(self, path):
        parent, name = self._parent(path)
        node = parent.entries.get(name)
        if not isinstance(node, Dir):
            raise FuseOSError(errno.ENOTDIR if node else errno.ENOENT)
        if node.entries:
            raise FuseOSError(errno.ENOTEMPTY)
        del parent.entries[name]

    def create(self, path, mode, fi=None):
        parent, name = self._parent(path)
        node = parent.entries.get(name)
        if node is None:
            node = parent.entries[name] = File(self._ino(), stat.S_IFREG | (mode & 0o7777))
        return self._open(node)

    def mknod(self, path, mode, dev):
        if not stat.S_ISREG(mode):
            raise FuseOSError(errno.EPERM)
        parent, name = self._parent(path)
        if name in parent.entries:
            raise FuseOSError(errno.EEXIST)
        parent.entries[name] = File(self._ino(), mode)

    def unlink(self, path):
        parent, name = self._parent(path)
        if name not in parent.entries:
            raise FuseOSError(errno.ENOENT)
        if isinstance(parent.entries[name], Dir):
            raise FuseOSError(errno.EISDIR)
        del parent.entries[name]

    def rename(self, old, new):
        op, on = self._parent(old)
        np, nn = self._parent(new)
        if on not in op.entries:
            raise FuseOSError(errno.ENOENT)
        node = op.entries[on]
        target = np.entries.get(nn)
        if isinstance(target, Dir) and target.entries:
            raise FuseOSError(errno.ENOTEMPTY)
        del op.entries[on]
        np.entries[nn] = node

    def fsyncdir(self, path, datasync, fh):
        node = self._lookup(path)
        if isinstance(node, Dir):
            node.sync()

    # --- data --------------------------------------------------------------------------------------------------
    def _open(self, node):
        fh = self.next_fh
        self.next_fh += 1
        self.fds[fh] = node
        return fh

    def open(self, path, flags):
        node = self._lookup(path)
        if isinstance(node, Dir):
            raise FuseOSError(errno.EISDIR)
        if flags & os.O_TRUNC:
            node.truncate(0)
        return self._open(node)

    def release(self, path, fh):
        self.fds.pop(fh, None)

    def read(self, path, size, offset, fh):
        return self._node(path, fh).read(offset, size)

    def write(self, path, data, offset, fh):
        self._node(path, fh).write(offset, data)
        return len(data)

    def truncate(self, path, length, fh=None):
        self._node(path, fh).truncate(length)

    def fsync(self, path, datasync, fh):
        self._node(path, fh).sync()

    def flush(self, path, fh):
        return 0

    def init(self, path):
        print(json.dumps({'ready': True}), flush=True)


def main():
    mountpoint = sys.argv[1]

    def watch_stdin():
        while sys.stdin.buffer.read1(65536):  # until the test closes it (or dies)
            pass
        subprocess.run(['fusermount', '-u', '-z', mountpoint], check=False)

    threading.Thread(target=watch_stdin, daemon=True).start()
    FUSE(PowerFS(), mountpoint, foreground=True, nothreads=True, attr_timeout=0, entry_timeout=0,
         negative_timeout=0, fsname='powerfs')


if __name__ == '__main__':
    main()
