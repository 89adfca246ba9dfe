"""Another thread that tries to shrink a bytearray while a C entry point of
crypto_api._direct_call works on it (tests/core/test_direct_call.py,
tests/core/test_aead_call.py).

Inside ``shrinking(buf)`` the switch interval is 10 s: the other thread can
run only when the main thread blocks or releases the GIL itself.  While
``go`` is set it counts its turns and tries to delete ``buf``'s last byte;
an entry point that holds the buffer exported makes every try a
BufferError (``refused``), one that does not lets it shrink (``shrunk``).
"""

import contextlib
import sys
import threading
import time


class Shrinker:
    def __init__(self, buf):
        self.buf = buf
        self.go = self.stop = False
        self.turns = self.refused = self.shrunk = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop:
            if self.go:
                self.turns += 1
                try:
                    del self.buf[-1:]
                except BufferError:
                    self.refused += 1
                else:
                    self.shrunk += 1
            time.sleep(0)                  # releases the GIL: the main thread goes on


@contextlib.contextmanager
def shrinking(buf):
    """A running Shrinker of ``buf``, with the 10 s switch interval; stopped after."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(10)
    other = Shrinker(buf)
    other.thread.start()
    try:
        yield other
    finally:
        other.stop = True
        sys.setswitchinterval(old)
        other.thread.join()
