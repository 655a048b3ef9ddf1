"""Pure-Python loops of known length that the harness tests measure (twice the loop: twice
the time)."""


def busy(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    return s


def loop200() -> None:
    busy(200)


def loop400() -> None:
    busy(400)
