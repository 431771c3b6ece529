# Another local user's side of the single executable's addon race (test/e2e/single-executable.test.ts,
# issue 37). Run as that user, in a directory they own: swap two directory entries atomically
# (renameat2 RENAME_EXCHANGE), without pause, so that a path looked up twice can name two different
# files; and keep their own file planted in their directory (the victim may overwrite it).
#   python3 exchange-swapper.py PARENT NAME_A NAME_B FILE CONTENT
import ctypes
import os
import sys

RENAME_EXCHANGE = 2
parent, a, b, name, content = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].encode()
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
me = os.getuid()
# One write: print() writes its end separately when Python runs unbuffered (PYTHONUNBUFFERED).
sys.stdout.write("ready\n")
sys.stdout.flush()
swaps = 0
while True:
    libc.renameat2(fd, a.encode(), fd, b.encode(), RENAME_EXCHANGE)
    swaps += 1
    if swaps % 64:
        continue
    for entry in (a, b):
        planted = os.path.join(parent, entry, name)
        try:
            if os.lstat(os.path.join(parent, entry)).st_uid != me or os.lstat(planted).st_uid == me:
                continue
            os.unlink(planted)
            with open(planted, "wb") as out:
                out.write(content)
        except OSError:
            pass
