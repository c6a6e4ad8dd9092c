import zlib, struct, sys, math, random
def png(path, w, h, px, alpha=True):
    raw = b''
    for y in range(h):
        raw += b'\x00' + bytes(v for x in range(w) for v in px(x, y)[:4 if alpha else 3])
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    ct = 6 if alpha else 2
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, ct, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
w, h = int(sys.argv[2]), int(sys.argv[3])
noise = [[random.randrange(256) for _ in range(4)] for _ in range(w * h)]
def px(x, y):
    n = noise[y * w + x]
    r = (x * 255 // max(w - 1, 1))
    g = (y * 255 // max(h - 1, 1))
    b = int(127 + 127 * math.sin((x + y) / 3.0))
    a = 255 if (x // 8 + y // 8) % 3 else (n[3] // 2 + 100)
    if (x * 7 + y * 3) % 23 < 4:
        r, g, b = n[0], n[1], n[2]
    return (r, g, b, a)
png(sys.argv[1], w, h, px)
