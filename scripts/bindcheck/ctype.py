"""C types in the one form the checker compares: base names, a pointer depth, an array length."""

from __future__ import annotations

from dataclasses import dataclass, replace

#: The base of an untyped pointer (C# IntPtr, ctypes c_void_p): it stands for any pointee.
ANY = "<any>"


@dataclass(frozen=True)
class CType:
    """A type after `const`, `struct` and typedefs of scalars are gone.

    A header type has one base. A binding type lists every C base it may stand for: ctypes'
    ``c_uint64`` *is* ``c_ulong`` *is* ``c_size_t`` on LP64, so it stands for all three.
    """

    bases: frozenset[str]
    depth: int = 0
    length: int | None = None

    @classmethod
    def of(cls, *bases: str, depth: int = 0, length: int | None = None) -> "CType":
        return cls(frozenset(bases), depth, length)

    def pointer(self) -> "CType":
        return replace(self, depth=self.depth + 1)

    def array(self, length: int) -> "CType":
        return replace(self, length=length)

    def element(self) -> "CType":
        return replace(self, length=None)

    def accepts(self, header: "CType") -> bool:
        """Whether this binding type may stand for ``header``.

        An untyped pointer accepts any pointer at least as deep (``out IntPtr`` accepts
        ``struct picollo_histogram **``); everything else must agree exactly.
        """
        if self.length != header.length:
            return False
        if ANY in self.bases:
            return 1 <= self.depth <= header.depth
        return self.depth == header.depth and not header.bases.isdisjoint(self.bases)
