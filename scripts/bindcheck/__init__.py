"""Compare the hand-written bindings of libpicollo with include/picollo.h.

`header` reads the C header; `python_side` and `csharp_side` read the ctypes and P/Invoke
bindings; `compare` holds the rules both bindings are checked by. `ctype.CType` is the common
form every declared type is turned into before two are compared.
"""
