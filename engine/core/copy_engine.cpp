// SPDX-License-Identifier: GPL-3.0-or-later
// The one copy engine: executes OutputPlans. The same traversal either moves values or writes
// packed source addresses, so `sources` can never disagree with the values.
//
// Speed (tests/bench/bench_slicing measures it): large copies are bound by memory, so the
// traversal is chosen for memory: whole cache lines on both sides, few page faults on the fresh
// output, and no per-element work the compiler cannot turn into plain moves.
#include "core/error.h"
#include "core/executor.h"
#include "core/op.h"
#include "core/plan_reads.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__SSE2__) && defined(__GNUC__)
// SSSE3 and AVX-512, used only where the processor has them (hasSsse3, hasAvx512). GCC 12 warns
// inside the header that its own placeholder for undefined lanes is uninitialised (GCC bug
// 105593): not this file's code.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace ss {

namespace {

struct Dim
{
    std::int64_t extent;
    std::int64_t in;
    std::int64_t out;
};

// Drops unit dimensions, orders the rest so the output is walked as sequentially as possible,
// and merges neighbours that form one longer run on both sides.
std::vector<Dim> normalise(const AffinePiece& p)
{
    std::vector<Dim> dims;
    for (std::size_t k = 0; k < p.extents.size(); ++k) {
        if (p.extents[k] == 0) return {{0, 0, 0}};
        if (p.extents[k] != 1) dims.push_back({p.extents[k], p.inStrides[k], p.outStrides[k]});
    }
    std::stable_sort(dims.begin(), dims.end(),
                     [](const Dim& a, const Dim& b) { return std::abs(a.out) > std::abs(b.out); });
    std::vector<Dim> merged;
    for (const Dim& d : dims) {
        if (!merged.empty()) {
            Dim& outer = merged.back();
            if (outer.in == d.in * d.extent && outer.out == d.out * d.extent) {
                outer = {outer.extent * d.extent, d.in, d.out};
                continue;
            }
        }
        merged.push_back(d);
    }
    if (merged.empty()) merged.push_back({1, 1, 1});
    return merged;
}

// Outputs from this size on do not fit in the caches.
constexpr std::int64_t kLargeOutputBytes = std::int64_t(8) << 20;

// A tile of a transpose-like piece: for x < na, the run of nb elements along b.
template <class Mover>
void tileByRows(const Mover& mv, std::int64_t o, std::int64_t i, std::int64_t na, std::int64_t nb,
                const Dim& a, const Dim& b)
{
    for (std::int64_t x = 0; x < na; ++x)
        mv.run(o + x * a.out, i + x * a.in, nb, b.in, b.out);
}

// The innermost loops of a piece walked as runs: `count` steps along `row`, and at each of them
// `sub.extent` runs along `sub` (1 when the piece has no such short dimension), each run
// `run.extent` elements long.
struct RunLoops
{
    Dim row;
    Dim sub;
    Dim run;
};

// Calls f(out, in) with the offsets of each of `count` steps' runs from the first one's, in the
// order they are walked.
template <class F> inline void forEachRun(std::int64_t count, const RunLoops& l, F&& f)
{
    for (std::int64_t r = 0; r < count; ++r)
        for (std::int64_t s = 0; s < l.sub.extent; ++s)
            f(r * l.row.out + s * l.sub.out, r * l.row.in + s * l.sub.in);
}

template <class Mover>
void runByRuns(const Mover& mv, std::int64_t o, std::int64_t i, std::int64_t count,
               const RunLoops& l)
{
    forEachRun(count, l, [&](std::int64_t to, std::int64_t from) {
        mv.run(o + to, i + from, l.run.extent, l.run.in, l.run.out);
    });
}

// Contiguous runs of Bytes each: a constant size lets the compiler inline the moves, where a
// memcpy call per 64-byte run would cost more than the move itself.
template <std::size_t Bytes, class T>
void copyRuns(T* dst, const T* src, std::int64_t count, const RunLoops& l)
{
    forEachRun(count, l, [&](std::int64_t to, std::int64_t from) {
        std::memcpy(dst + to, src + from, Bytes);
    });
}

#if defined(__SSE2__)
// Square blocks transposed in registers, one 16-byte row at a time. Integer unpacks move bits
// only, so every value (NaN payloads included) arrives unchanged. Streaming stores bypass the
// cache for outputs written a line at a time and not read back soon.
template <bool Stream> inline void store16(void* dst, __m128i v)
{
    if constexpr (Stream)
        _mm_stream_si128(static_cast<__m128i*>(dst), v);
    else
        _mm_storeu_si128(static_cast<__m128i*>(dst), v);
}

template <bool Stream>
inline void transposeBlock(std::uint32_t* dst, const std::uint32_t* src, std::int64_t dstStride,
                           std::int64_t srcStride)
{
    auto load = [&](int k) {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k * srcStride));
    };
    const __m128i r0 = load(0), r1 = load(1), r2 = load(2), r3 = load(3);
    const __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
    const __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
    store16<Stream>(dst, _mm_unpacklo_epi64(t0, t1));
    store16<Stream>(dst + dstStride, _mm_unpackhi_epi64(t0, t1));
    store16<Stream>(dst + 2 * dstStride, _mm_unpacklo_epi64(t2, t3));
    store16<Stream>(dst + 3 * dstStride, _mm_unpackhi_epi64(t2, t3));
}

template <bool Stream>
inline void transposeBlock(std::uint64_t* dst, const std::uint64_t* src, std::int64_t dstStride,
                           std::int64_t srcStride)
{
    const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + srcStride));
    store16<Stream>(dst, _mm_unpacklo_epi64(r0, r1));
    store16<Stream>(dst + dstStride, _mm_unpackhi_epi64(r0, r1));
}

// 16 x 16 bytes or 8 x 8 16-bit elements. Each stage interleaves register k with register
// k + V/2, element by element; that rotates the bits of (row, column) by one, so log2(V) stages
// turn (row, column) into (column, row).
template <class T>
inline void transposeNarrowBlock(T* dst, const T* src, std::int64_t dstStride,
                                 std::int64_t srcStride)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2);
    constexpr int V = 16 / int(sizeof(T));
    __m128i r[V];
    for (int k = 0; k < V; ++k)
        r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k * srcStride));
    for (int stage = 1; stage < V; stage *= 2) {
        __m128i t[V];
        for (int k = 0; k < V / 2; ++k) {
            if constexpr (sizeof(T) == 1) {
                t[2 * k] = _mm_unpacklo_epi8(r[k], r[k + V / 2]);
                t[2 * k + 1] = _mm_unpackhi_epi8(r[k], r[k + V / 2]);
            } else {
                t[2 * k] = _mm_unpacklo_epi16(r[k], r[k + V / 2]);
                t[2 * k + 1] = _mm_unpackhi_epi16(r[k], r[k + V / 2]);
            }
        }
        for (int k = 0; k < V; ++k)
            r[k] = t[k];
    }
    for (int k = 0; k < V; ++k)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k * dstStride), r[k]);
}

#endif

#if defined(__SSE2__) && defined(__GNUC__)
#define SS_RUNTIME_DISPATCH 1
// The build targets baseline x86-64 (SSE2), which has no byte shuffle: reversing 16 bytes there
// takes five shuffles and shifts, which bound a reversal by the shuffle port, not by memory
// (2-3x the streaming bound). SSSE3's pshufb does it in one; every x86-64 processor since 2006
// has it, and the code below runs only where the processor says so (checked once).
bool hasSsse3()
{
    static const bool has = __builtin_cpu_supports("ssse3");
    return has;
}

// Transposes of 4- and 8-byte elements in 4 x 4 and 2 x 2 blocks of 16-byte registers load each
// input line in four pieces, the 16 (8) rows of a tile a few at a time; rows 32 KiB apart (an
// 8192-wide float32 array) share one L1 set, so each line came from L2 again for every piece.
// AVX-512 holds a 16 x 16 (8 x 8) block: each input line is loaded once and each output line
// stored once, whole (float32 8192^2 through the CLI: 55.6 ms a request against 105.6).
bool hasAvx512()
{
    static const bool has = __builtin_cpu_supports("avx512f");
    return has;
}

// For x < na in steps of L = 64 / sizeof(T): the L x L block at src + x (L rows srcStride apart)
// transposed to dst + x * dstStride (L rows dstStride apart). With Stream, dst and dstStride keep
// every row on a 64-byte boundary.
template <class T, bool Stream>
__attribute__((target("avx512f"))) void transposeLineBlocks(T* dst, const T* src, std::int64_t na,
                                                            std::int64_t dstStride,
                                                            std::int64_t srcStride)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8);
    constexpr int L = 64 / int(sizeof(T)); // rows and columns of a block
    constexpr int C = 16 / int(sizeof(T)); // elements in a 128-bit lane
    for (std::int64_t x = 0; x + L <= na; x += L) {
        __m512i r[L], t[L];
        for (int k = 0; k < L; ++k)
            r[k] = _mm512_loadu_si512(src + x + k * srcStride);
        // Within each 128-bit lane j, rows interleaved until g[C * q + c] holds rows C * q, ...,
        // C * q + C - 1 of column C * j + c.
        const __m512i* g = t;
        if constexpr (sizeof(T) == 4) {
            for (int k = 0; k < L; k += 2) {
                t[k] = _mm512_unpacklo_epi32(r[k], r[k + 1]);
                t[k + 1] = _mm512_unpackhi_epi32(r[k], r[k + 1]);
            }
            for (int k = 0; k < L; k += 4) {
                r[k] = _mm512_unpacklo_epi64(t[k], t[k + 2]);
                r[k + 1] = _mm512_unpackhi_epi64(t[k], t[k + 2]);
                r[k + 2] = _mm512_unpacklo_epi64(t[k + 1], t[k + 3]);
                r[k + 3] = _mm512_unpackhi_epi64(t[k + 1], t[k + 3]);
            }
            g = r;
        } else {
            for (int k = 0; k < L; k += 2) {
                t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]);
                t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]);
            }
        }
        // Then the lanes: output row C * j + c is lane j of g[c], g[C + c], g[2C + c], g[3C + c].
        T* out = dst + x * dstStride;
        for (int c = 0; c < C; ++c) {
            const __m512i lo0 = _mm512_shuffle_i64x2(g[c], g[C + c], 0x88);
            const __m512i hi0 = _mm512_shuffle_i64x2(g[c], g[C + c], 0xDD);
            const __m512i lo1 = _mm512_shuffle_i64x2(g[2 * C + c], g[3 * C + c], 0x88);
            const __m512i hi1 = _mm512_shuffle_i64x2(g[2 * C + c], g[3 * C + c], 0xDD);
            const __m512i rows[4] = {
                _mm512_shuffle_i64x2(lo0, lo1, 0x88), _mm512_shuffle_i64x2(hi0, hi1, 0x88),
                _mm512_shuffle_i64x2(lo0, lo1, 0xDD), _mm512_shuffle_i64x2(hi0, hi1, 0xDD)};
            for (int j = 0; j < 4; ++j) {
                void* row = out + (C * j + c) * dstStride;
                if constexpr (Stream)
                    _mm512_stream_si512(static_cast<__m512i*>(row), rows[j]);
                else
                    _mm512_storeu_si512(row, rows[j]);
            }
        }
    }
}

// dst[k] = src[-k] for k below the largest multiple of 16 bytes that fits in n (plus, with
// `stream`, the elements before dst's first 16-byte boundary); returns that k. With `stream` the
// stores bypass the caches (a large output written once).
template <class T>
__attribute__((target("ssse3"))) std::int64_t reverseSsse3(T* dst, const T* src, std::int64_t n,
                                                           bool stream)
{
    constexpr std::int64_t V = 16 / std::int64_t(sizeof(T));
    const __m128i order = sizeof(T) == 1
                              ? _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
                              : _mm_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    std::int64_t k = 0;
    if (stream) {
        for (; reinterpret_cast<std::uintptr_t>(dst + k) % 16 != 0; ++k)
            dst[k] = src[-k];
        // From the run's end back: the source is read upwards, as the prefetchers follow best
        // (2x faster than reading it downwards for int16 4096^2, measured); the streaming stores
        // fill whole lines in either order.
        const std::int64_t head = k;
        const std::int64_t end = head + (n - head) / V * V;
        for (k = end; k > head;) {
            k -= V;
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src - k - (V - 1)));
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k), _mm_shuffle_epi8(v, order));
        }
        k = end;
    }
    for (; k + V <= n; k += V) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src - k - (V - 1)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k), _mm_shuffle_epi8(v, order));
    }
    return k;
}
#endif

// Moves elements of type T from one source into the output.
template <class T> struct ValueMover
{
#if defined(__SSE2__)
    static constexpr bool kBlocks =
        std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>;
    static constexpr bool kNarrow =
        std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t>;
#else
    static constexpr bool kBlocks = false;
    static constexpr bool kNarrow = false;
#endif
    // Elements in one 64-byte cache line.
    static constexpr std::int64_t kLine = 64 / std::int64_t(sizeof(T));
    // Elements in one 16-byte register.
    static constexpr std::int64_t kUnit = 16 / std::int64_t(sizeof(T));
    // Transposes in register blocks use tall, thin tiles: each tile row reads a 4 KiB run of the
    // source and writes exactly one 64-byte line of the output, so both sides move whole lines.
    // Narrow elements need a line's worth of rows (64 or 32) for one output line, too many lines
    // for one L1 set when rows are 4 KiB apart: their tiles read 1 KiB runs and pass through
    // contiguous buffers a line square at a time (see lineTile). Measured on 4096^2 transposes:
    // one-line-square tiles made int16 10-25% slower (each tile then reads one line per source
    // row, which no prefetcher follows), 4 KiB runs made int8 50% slower (64 rows of 4 KiB
    // overflow L2's prefetch streams and L1).
    static constexpr std::int64_t kTileA = kNarrow   ? 1024 / std::int64_t(sizeof(T))
                                           : kBlocks ? 4096 / std::int64_t(sizeof(T))
                                                     : 32;
    static constexpr std::int64_t kTileB = kNarrow || kBlocks ? kLine : 32;

    T* out;
    const T* in;
    bool largeOutput = false;

    void run(std::int64_t o, std::int64_t i, std::int64_t n, std::int64_t inStride,
             std::int64_t outStride) const
    {
        T* dst = out + o;
        const T* src = in + i;
        if (outStride == 1) {
            if (inStride == 1) {
                if constexpr (std::is_trivially_copyable_v<T>)
                    std::memcpy(dst, src, std::size_t(n) * sizeof(T));
                else
                    std::copy_n(src, n, dst);
            } else if (inStride == 0) {
                std::fill_n(dst, n, *src);
            } else if (inStride == -1) {
                reverse(dst, src, n);
            } else {
                elements(
                    dst, n, [=](std::int64_t k) { return src[k * inStride]; },
                    [](std::int64_t) -> const T* { return nullptr; });
            }
            return;
        }
        for (std::int64_t k = 0; k < n; ++k)
            dst[k * outStride] = src[k * inStride];
    }

    void one(std::int64_t o, std::int64_t i) const
    {
        out[o] = in[i];
    }

    // out[o + k] = in[i + idx[k] * stride] for k < n: one element per index (a gather of
    // scalars). Consecutive indices of adjacent elements are read as runs where the output is
    // streamed. i alone may lie past the input (one_hot's window starts cancel its group), so
    // only whole offsets become pointers.
    template <class I>
    void picks(std::int64_t o, std::int64_t i, const I* idx, std::int64_t stride,
               std::int64_t n) const
    {
        const T* src = in;
        elements(
            out + o, n, [=](std::int64_t k) { return src[i + std::int64_t(idx[k]) * stride]; },
            [=](std::int64_t k) -> const T* {
                const std::int64_t first = idx[k];
                bool run = stride == 1;
                for (std::int64_t m = 1; m < kUnit; ++m)
                    run &= std::int64_t(idx[k + m]) == first + m;
                return run ? src + (i + first) : nullptr;
            });
    }

    void runs(std::int64_t o, std::int64_t i, std::int64_t count, const RunLoops& l) const
    {
        if constexpr (std::is_trivially_copyable_v<T>) {
            if (l.run.in == 1 && l.run.out == 1) {
                T* dst = out + o;
                const T* src = in + i;
#if defined(__SSE2__)
                if constexpr (kBlocks)
                    if (largeOutput && streamable(dst, l)) return streamRuns(dst, src, count, l);
#endif
                switch (std::size_t(l.run.extent) * sizeof(T)) {
                case 8: return copyRuns<8>(dst, src, count, l);
                case 16: return copyRuns<16>(dst, src, count, l);
                case 32: return copyRuns<32>(dst, src, count, l);
                case 64: return copyRuns<64>(dst, src, count, l);
                case 96: return copyRuns<96>(dst, src, count, l);
                case 128: return copyRuns<128>(dst, src, count, l);
                case 256: return copyRuns<256>(dst, src, count, l);
                default: break;
                }
            }
        }
        runByRuns(*this, o, i, count, l);
    }

    void tile(std::int64_t o, std::int64_t i, std::int64_t na, std::int64_t nb, const Dim& a,
              const Dim& b) const
    {
#if defined(__SSE2__)
        if constexpr (kBlocks || kNarrow) {
            if (a.in == 1 && b.out == 1) {
                // Streaming stores need 16-byte alignment, which every row then keeps.
                const bool stream = largeOutput &&
                                    reinterpret_cast<std::uintptr_t>(out + o) % 16 == 0 &&
                                    (a.out * std::int64_t(sizeof(T))) % 16 == 0;
                if constexpr (kNarrow) {
                    // Line squares along the tile; the strips at its edges take the rows below.
                    if (nb == kLine) {
                        std::int64_t x = 0;
                        for (; x + kLine <= na; x += kLine) {
                            if (stream)
                                lineTile<true>(o + x * a.out, i + x, a, b);
                            else
                                lineTile<false>(o + x * a.out, i + x, a, b);
                        }
                        if (x < na) tileByRows(*this, o + x * a.out, i + x, na - x, nb, a, b);
                        return;
                    }
                } else {
                    if (stream)
                        blocks<true>(o, i, na, nb, a, b);
                    else
                        blocks<false>(o, i, na, nb, a, b);
                    return;
                }
            }
        }
#endif
        tileByRows(*this, o, i, na, nb, a, b);
    }

    // Streaming stores are weakly ordered: make them visible before the chunk counts as done.
    void finish() const
    {
#if defined(__SSE2__)
        if constexpr (kBlocks || kNarrow)
            if (largeOutput) _mm_sfence();
#endif
    }

private:
    // dst[k] = at(k) for k < n, element by element. A large output of 4- or 8-byte elements is
    // written 16 bytes at a time with streaming stores (streamElements) once the run is a few
    // lines long; runAt(k) says where elements k, ..., k + kUnit - 1 lie side by side in the
    // source (then one load reads them), or nullptr.
    template <class At, class RunAt>
    void elements(T* dst, std::int64_t n, const At& at, const RunAt& runAt) const
    {
        std::int64_t k = 0;
#if defined(__SSE2__)
        if constexpr (kBlocks)
            if (largeOutput && n >= 4 * kLine) k = streamElements(dst, n, at, runAt);
#else
        (void)runAt;
#endif
        for (; k < n; ++k)
            dst[k] = at(k);
    }

    // dst[k] = src[-k] for k < n.
    void reverse(T* dst, const T* src, std::int64_t n) const
    {
        std::int64_t k = 0;
#if defined(SS_RUNTIME_DISPATCH)
        // A large output is written past the caches once its first 16-byte boundary is reached
        // (a run of a few lines only when it is long enough to be worth it).
        if constexpr (kNarrow)
            if (hasSsse3()) k = reverseSsse3(dst, src, n, largeOutput && n >= 4 * kLine);
#endif
        for (; k < n; ++k)
            dst[k] = src[-k];
    }

#if defined(__SSE2__)
    // Whether short runs of whole 16-byte units, each starting on a 16-byte boundary, fill the
    // output's lines in order: one after another, or (with a sub) sub.extent side by side streams.
    // Longer runs stay with memcpy: streamed, the 1 KiB runs of a reversal along axis 2 of
    // 16x64x256x256 float32 took 113 ms against 62 (CLI, load 8).
    static bool streamable(const T* dst, const RunLoops& l)
    {
        constexpr std::int64_t kMaxStreamedRun = 256 / std::int64_t(sizeof(T));
        const bool inOrder =
            l.row.out == l.run.extent * (l.sub.out == l.run.extent ? l.sub.extent : 1);
        return inOrder && l.run.extent % kUnit == 0 && l.run.extent <= kMaxStreamedRun &&
               l.sub.out % kUnit == 0 && l.row.out % kUnit == 0 &&
               reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
    }

    // Contiguous runs written with streaming stores (streamable).
    static void streamRuns(T* dst, const T* src, std::int64_t count, const RunLoops& l)
    {
        const std::int64_t units = l.run.extent * std::int64_t(sizeof(T)) / 16;
        forEachRun(count, l, [&](std::int64_t to, std::int64_t from) {
            auto* d = reinterpret_cast<__m128i*>(dst + to);
            const auto* q = reinterpret_cast<const __m128i*>(src + from);
            for (std::int64_t k = 0; k < units; ++k)
                _mm_stream_si128(d + k, _mm_loadu_si128(q + k));
        });
    }

    // dst[k] = at(k) for k up to the last whole 16 bytes of dst (returned), 16 bytes at a time
    // with streaming stores from its first 16-byte boundary on. The elements are read anyway
    // (every input line of x[..., ::3], every index of a gather), and a large output written
    // through the caches is first read into them (x[..., None, ::3] on 4096^2 float32: 22 MB
    // more traffic on top of 64 + 22; a gather of 10^7 float32: 40 MB on top of 120).
    template <class At, class RunAt>
    static std::int64_t streamElements(T* dst, std::int64_t n, const At& at, const RunAt& runAt)
    {
        std::int64_t k = 0;
        for (; k < n && reinterpret_cast<std::uintptr_t>(dst + k) % 16 != 0; ++k)
            dst[k] = at(k);
        for (; k + kUnit <= n; k += kUnit) {
            const T* run = runAt(k);
            __m128i v;
            if (run)
                v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(run));
            else if constexpr (sizeof(T) == 4)
                v = _mm_setr_epi32(int(at(k)), int(at(k + 1)), int(at(k + 2)), int(at(k + 3)));
            else
                v = _mm_set_epi64x(std::int64_t(at(k + 1)), std::int64_t(at(k)));
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k), v);
        }
        return k;
    }

    // One line-square tile of narrow elements (a.in == 1, b.out == 1): the kLine source rows are
    // copied into a contiguous buffer (each source line read once, in one burst), transposed in
    // register blocks into a second buffer, and each output line written from it in one burst.
    // Both buffers are L1-resident and hit distinct cache sets whatever the tensors' strides.
    template <bool Stream>
    void lineTile(std::int64_t o, std::int64_t i, const Dim& a, const Dim& b) const
    {
        constexpr std::int64_t V = 16 / std::int64_t(sizeof(T));
        alignas(64) T rows[kLine * kLine];
        alignas(64) T cols[kLine * kLine];
        for (std::int64_t y = 0; y < kLine; ++y)
            std::memcpy(rows + y * kLine, in + i + y * b.in, 64);
        for (std::int64_t x = 0; x < kLine; x += V)
            for (std::int64_t y = 0; y < kLine; y += V)
                transposeNarrowBlock(cols + x * kLine + y, rows + y * kLine + x, kLine, kLine);
        for (std::int64_t x = 0; x < kLine; ++x) {
            T* dst = out + o + x * a.out;
            const T* src = cols + x * kLine;
            for (std::int64_t k = 0; k < kLine; k += V)
                store16<Stream>(dst + k, _mm_load_si128(reinterpret_cast<const __m128i*>(src + k)));
        }
    }

    template <bool Stream>
    void blocks(std::int64_t o, std::int64_t i, std::int64_t na, std::int64_t nb, const Dim& a,
                const Dim& b) const
    {
        constexpr std::int64_t kBlock = 16 / sizeof(T);
#if defined(SS_RUNTIME_DISPATCH)
        if (nb == kLine && hasAvx512() &&
            (!Stream || (reinterpret_cast<std::uintptr_t>(out + o) % 64 == 0 &&
                         (a.out * std::int64_t(sizeof(T))) % 64 == 0))) {
            const std::int64_t whole = na / kLine * kLine;
            transposeLineBlocks<T, Stream>(out + o, in + i, whole, a.out, b.in);
            tileByRows(*this, o + whole * a.out, i + whole, na - whole, nb, a, b);
            return;
        }
#endif
        const std::int64_t ma = na / kBlock * kBlock;
        const std::int64_t mb = nb / kBlock * kBlock;
        for (std::int64_t x = 0; x < ma; x += kBlock) {
            for (std::int64_t y = 0; y < mb; y += kBlock)
                transposeBlock<Stream>(out + o + x * a.out + y, in + i + x + y * b.in, a.out, b.in);
            for (std::int64_t r = x; r < x + kBlock && mb < nb; ++r)
                run(o + r * a.out + mb, i + r + mb * b.in, nb - mb, b.in, 1);
        }
        tileByRows(*this, o + ma * a.out, i + ma, na - ma, nb, a, b);
    }
#endif
};

// Writes where each element would come from instead of moving it, and marks it in a byte map
// as written: the map (an eighth of the sources' size) is what lets planSources check that every
// element was written without filling the sources with a marker first and scanning them after.
struct SourceMover
{
    static constexpr std::int64_t kTileA = 32;
    static constexpr std::int64_t kTileB = 32;

    std::int64_t* out;
    std::uint8_t* written;
    int slot;

    void run(std::int64_t o, std::int64_t i, std::int64_t n, std::int64_t inStride,
             std::int64_t outStride) const
    {
        if (outStride == 1) {
            std::int64_t* dst = out + o;
            if (slot == kConstantSlot)
                std::fill_n(dst, n, kNoSource);
            else
                for (std::int64_t k = 0; k < n; ++k)
                    dst[k] = packSource(slot, i + k * inStride);
            std::memset(written + o, 1, std::size_t(n));
            return;
        }
        for (std::int64_t k = 0; k < n; ++k) {
            out[o + k * outStride] =
                slot == kConstantSlot ? kNoSource : packSource(slot, i + k * inStride);
            written[o + k * outStride] = 1;
        }
    }

    void one(std::int64_t o, std::int64_t i) const
    {
        out[o] = slot == kConstantSlot ? kNoSource : packSource(slot, i);
        written[o] = 1;
    }

    // As ValueMover::picks: where each of n scalars of a gather comes from.
    template <class I>
    void picks(std::int64_t o, std::int64_t i, const I* idx, std::int64_t stride,
               std::int64_t n) const
    {
        for (std::int64_t k = 0; k < n; ++k)
            one(o + k, i + std::int64_t(idx[k]) * stride);
    }

    void runs(std::int64_t o, std::int64_t i, std::int64_t count, const RunLoops& l) const
    {
        runByRuns(*this, o, i, count, l);
    }

    void tile(std::int64_t o, std::int64_t i, std::int64_t na, std::int64_t nb, const Dim& a,
              const Dim& b) const
    {
        tileByRows(*this, o, i, na, nb, a, b);
    }

    void finish() const {}
};

// A short dimension whose runs lie end to end on one side, and a row that continues them there:
// walked innermost, they move that side's memory in order (extract_image_patches' window rows
// fill each output pixel in turn, space_to_batch's block columns read each input row in turn),
// where the row alone would step over the sub's runs and come back for them. The sub is taken
// out of `dims` and the row put last; {1, 0, 0} (one run) when there is no such pair.
Dim takeSubRow(std::vector<Dim>& dims, const Dim& run)
{
    constexpr std::int64_t kShort = 8;
    for (const auto side : {&Dim::out, &Dim::in}) {
        if (std::abs(run.*side) != 1) continue;
        for (std::size_t s = 0; s < dims.size(); ++s) {
            const Dim sub = dims[s];
            if (sub.extent > kShort || sub.*side != run.extent * run.*side) continue;
            for (std::size_t r = 0; r < dims.size(); ++r) {
                if (r == s || dims[r].*side != sub.extent * sub.*side) continue;
                const Dim row = dims[r];
                dims.erase(dims.begin() + std::ptrdiff_t(std::max(r, s)));
                dims.erase(dims.begin() + std::ptrdiff_t(std::min(r, s)));
                dims.push_back(row);
                return sub;
            }
        }
    }
    return {1, 0, 0};
}

template <class Mover>
void runAffine(const AffinePiece& p, const Mover& mv, Executor& ex, JobContext* ctx)
{
    std::vector<Dim> dims = normalise(p);
    if (dims.front().extent == 0) return;
    const Dim inner = dims.back();
    dims.pop_back();

    // A transpose-like piece: the output's inner axis reads with a long stride while another
    // axis reads contiguously. Walk it in tiles.
    int contiguous = -1;
    if (std::abs(inner.in) > 1 && inner.extent >= 8)
        for (int k = int(dims.size()) - 1; k >= 0; --k)
            if (std::abs(dims[std::size_t(k)].in) == 1 && dims[std::size_t(k)].extent >= 8) {
                contiguous = k;
                break;
            }

    if (contiguous >= 0) {
        const Dim a = dims[std::size_t(contiguous)];
        dims.erase(dims.begin() + contiguous);
        const std::int64_t tilesA = (a.extent + Mover::kTileA - 1) / Mover::kTileA;
        const std::int64_t tilesB = (inner.extent + Mover::kTileB - 1) / Mover::kTileB;
        std::int64_t outer = 1;
        for (const Dim& d : dims)
            outer *= d.extent;
        // Tiles along b come first, so consecutive tiles complete the same output rows. A chunk
        // holds at least one such band: two threads filling one band would fault on the same
        // fresh output pages.
        ex.parallelFor(
            outer * tilesA * tilesB, tilesB,
            [&](std::int64_t begin, std::int64_t end) {
                std::int64_t elements = 0;
                for (std::int64_t t = begin; t < end; ++t) {
                    std::int64_t rest = t;
                    const std::int64_t tb = rest % tilesB;
                    rest /= tilesB;
                    const std::int64_t ta = rest % tilesA;
                    rest /= tilesA;
                    std::int64_t o = p.outOffset;
                    std::int64_t i = p.inOffset;
                    for (std::size_t k = dims.size(); k-- > 0;) {
                        const std::int64_t c = rest % dims[k].extent;
                        rest /= dims[k].extent;
                        o += c * dims[k].out;
                        i += c * dims[k].in;
                    }
                    const std::int64_t a0 = ta * Mover::kTileA;
                    const std::int64_t na = std::min(Mover::kTileA, a.extent - a0);
                    const std::int64_t b0 = tb * Mover::kTileB;
                    const std::int64_t nb = std::min(Mover::kTileB, inner.extent - b0);
                    mv.tile(o + a0 * a.out + b0 * inner.out, i + a0 * a.in + b0 * inner.in, na, nb,
                            a, inner);
                    elements += na * nb;
                }
                mv.finish();
                if (ctx) ctx->addWork(elements);
            },
            ctx);
        return;
    }

    // Outer dimensions with a small stride on either side go inward, so that neighbouring runs
    // touch neighbouring memory on at least one side (space_to_batch then reads each source row
    // once, instead of once per block column).
    std::stable_sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) {
        return std::min(std::abs(a.in), std::abs(a.out)) >
               std::min(std::abs(b.in), std::abs(b.out));
    });
    const Dim sub = takeSubRow(dims, inner);
    if (dims.empty()) dims.push_back({1, 0, 0});
    std::int64_t outer = 1;
    for (const Dim& d : dims)
        outer *= d.extent;
    const std::size_t last = dims.size() - 1;
    const Dim row = dims[last];
    const RunLoops loops{row, sub, inner};
    const std::int64_t runElements = sub.extent * inner.extent;
    ex.parallelFor(
        outer, std::max<std::int64_t>(1, 32768 / runElements),
        [&](std::int64_t begin, std::int64_t end) {
            // Odometer over the outer dimensions, started at `begin`; the runs along the last one
            // go to the mover together.
            std::vector<std::int64_t> coord(dims.size());
            std::int64_t o = p.outOffset;
            std::int64_t i = p.inOffset;
            std::int64_t rest = begin;
            for (std::size_t k = dims.size(); k-- > 0;) {
                coord[k] = rest % dims[k].extent;
                rest /= dims[k].extent;
                o += coord[k] * dims[k].out;
                i += coord[k] * dims[k].in;
            }
            for (std::int64_t t = begin; t < end;) {
                const std::int64_t count = std::min(end - t, row.extent - coord[last]);
                mv.runs(o, i, count, loops);
                t += count;
                coord[last] += count;
                o += count * row.out;
                i += count * row.in;
                if (coord[last] < row.extent) break; // the chunk ends inside this row of runs
                o -= row.out * row.extent;
                i -= row.in * row.extent;
                coord[last] = 0;
                for (std::size_t k = last; k-- > 0;) {
                    o += dims[k].out;
                    i += dims[k].in;
                    if (++coord[k] < dims[k].extent) break;
                    o -= dims[k].out * dims[k].extent;
                    i -= dims[k].in * dims[k].extent;
                    coord[k] = 0;
                }
            }
            mv.finish();
            if (ctx) ctx->addWork((end - begin) * runElements);
        },
        ctx);
}

template <class MakeMover>
void runRows(const RowsPiece& p, const MakeMover& makeMover, Executor& ex, JobContext* ctx)
{
    const std::int64_t rows = std::int64_t(p.rows.size());
    const std::int64_t len = p.rowLength;
    if (len == 0) return;
    const std::int64_t constantStride = p.constantRuns ? 1 : 0;
    ex.parallelFor(
        rows, std::max<std::int64_t>(1, 16384 / len),
        [&](std::int64_t begin, std::int64_t end) {
            // Rows mostly come from one source: make its mover once, not once per row.
            int moverSlot = -1;
            auto mover = makeMover(kConstantSlot);
            for (std::int64_t r = begin; r < end; ++r) {
                const std::int64_t src = p.rows[std::size_t(r)];
                const int slot = sourceSlot(src);
                if (slot != moverSlot) {
                    mover = makeMover(slot);
                    moverSlot = slot;
                }
                if (len == 1)
                    mover.one(p.outOffset + r, sourceIndex(src));
                else
                    mover.run(p.outOffset + r * len, sourceIndex(src), len,
                              slot == kConstantSlot ? constantStride : 1, 1);
            }
            mover.finish();
            if (ctx) ctx->addWork((end - begin) * len);
        },
        ctx);
}

// Calls f with an index tensor's elements in their own type.
template <class F> void withIndexType(const Tensor& indices, F&& f)
{
    switch (indices.dtype()) {
    case DType::Int16: return f(indices.data<std::int16_t>());
    case DType::Int32: return f(indices.data<std::int32_t>());
    case DType::Int64: return f(indices.data<std::int64_t>());
    default: throw OpError(ErrorCode::Internal, "an index piece needs int16, int32 or int64");
    }
}

// The element offset an index tuple stands for.
template <class I>
inline std::int64_t tupleOffset(const I* tuple, const std::vector<std::int64_t>& strides)
{
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < strides.size(); ++k)
        offset += std::int64_t(tuple[k]) * strides[k];
    return offset;
}

// Gather form: output rows [begin, end) of the piece, each read where its index tuple points.
template <class I, class Mover>
void gatherRows(const IndexPiece& p, const I* idx, const Mover& mv, std::int64_t begin,
                std::int64_t end)
{
    const std::int64_t len = p.rowLength;
    const std::size_t width = p.indexStrides.size();
    const std::int64_t stride = width > 0 ? p.indexStrides[0] : 0;
    std::int64_t g = begin / p.count;
    std::int64_t j = begin % p.count;
    for (std::int64_t r = begin; r < end; ++g, j = 0) {
        const std::int64_t stop = std::min(p.count, j + (end - r));
        const I* tuples = idx + std::int64_t(width) * ((g / p.groupsPerBlock) * p.count);
        const std::int64_t in = p.inOffset + g * p.groupStride;
        const std::int64_t out = p.outOffset + (r - j) * len;
        // The common cases get loops of their own: one index per row, and one-element rows.
        if (width == 1 && len == 1) {
            mv.picks(out + j, in, tuples + j, stride, stop - j);
        } else if (width == 1) {
            for (std::int64_t k = j; k < stop; ++k)
                mv.run(out + k * len, in + std::int64_t(tuples[k]) * stride, len, 1, 1);
        } else {
            for (std::int64_t k = j; k < stop; ++k)
                mv.run(out + k * len,
                       in + tupleOffset(tuples + std::size_t(k) * width, p.indexStrides), len, 1,
                       1);
        }
        r += stop - j;
    }
}

// Scatter form: source rows [begin, end) to where their indices point, those whose target row
// lies in [lo, hi) only (all of them when lo = 0 and hi = targetRows). Returns the rows moved.
template <class I, class Mover>
std::int64_t scatterRows(const IndexPiece& p, const I* idx, const Mover& mv, std::int64_t begin,
                         std::int64_t end, std::int64_t lo, std::int64_t hi)
{
    const std::int64_t len = p.rowLength;
    const std::int64_t stride = p.indexStrides[0];
    const bool all = lo == 0 && hi >= p.targetRows;
    std::int64_t moved = 0;
    for (std::int64_t j = begin; j < end; ++j) {
        const std::int64_t v = idx[j];
        if (!all && (v < lo || v >= hi)) continue;
        ++moved;
        if (len == 1)
            mv.one(p.outOffset + v * stride, p.inOffset + j);
        else
            mv.run(p.outOffset + v * stride, p.inOffset + j * len, len, 1, 1);
    }
    return moved;
}

template <class Mover>
void runIndex(const IndexPiece& p, const Mover& mv, Executor& ex, JobContext* ctx)
{
    if (p.count == 0 || p.groups == 0 || p.rowLength == 0) return;
    const std::int64_t grain = std::max<std::int64_t>(1, 16384 / p.rowLength);
    withIndexType(p.indices, [&](const auto* idx) {
        if (!p.scatter) {
            ex.parallelFor(
                p.groups * p.count, grain,
                [&](std::int64_t begin, std::int64_t end) {
                    gatherRows(p, idx, mv, begin, end);
                    mv.finish();
                    if (ctx) ctx->addWork((end - begin) * p.rowLength);
                },
                ctx);
        } else if (p.distinctTargets) {
            // No row is named twice, so chunks of sources may be written in any order.
            ex.parallelFor(
                p.count, grain,
                [&](std::int64_t begin, std::int64_t end) {
                    scatterRows(p, idx, mv, begin, end, 0, p.targetRows);
                    mv.finish();
                    if (ctx) ctx->addWork((end - begin) * p.rowLength);
                },
                ctx);
        } else {
            // A later source must win over an earlier one for the same row, whatever the thread
            // timing: each part owns a range of output rows and reads every index in order.
            const std::int64_t parts =
                std::min<std::int64_t>(p.targetRows, std::max(1, ex.threadCount()));
            ex.parallelFor(
                parts, 1,
                [&](std::int64_t begin, std::int64_t end) {
                    for (std::int64_t q = begin; q < end; ++q) {
                        const std::int64_t moved =
                            scatterRows(p, idx, mv, 0, p.count, p.targetRows * q / parts,
                                        p.targetRows * (q + 1) / parts);
                        if (ctx) ctx->addWork(moved * p.rowLength);
                    }
                    mv.finish();
                },
                ctx);
        }
    });
}

template <class MakeMover>
void runPieces(const OutputPlan& plan, const MakeMover& makeMover, Executor& ex, JobContext* ctx)
{
    for (const Piece& piece : plan.pieces) {
        if (const auto* affine = std::get_if<AffinePiece>(&piece))
            runAffine(*affine, makeMover(affine->slot), ex, ctx);
        else if (const auto* indexed = std::get_if<IndexPiece>(&piece))
            runIndex(*indexed, makeMover(indexed->slot), ex, ctx);
        else
            runRows(std::get<RowsPiece>(piece), makeMover, ex, ctx);
    }
}

// A 16-byte element (complex128) as bits.
struct Bits128
{
    std::uint64_t low;
    std::uint64_t high;
};

// Element types by width: moving bit patterns keeps NaN payloads and needs only six kernels.
template <class F> void visitStorage(DType t, F&& f)
{
    if (t == DType::String) return f(std::type_identity<std::string>{});
    switch (dtypeSize(t)) {
    case 1: return f(std::type_identity<std::uint8_t>{});
    case 2: return f(std::type_identity<std::uint16_t>{});
    case 4: return f(std::type_identity<std::uint32_t>{});
    case 8: return f(std::type_identity<std::uint64_t>{});
    default: return f(std::type_identity<Bits128>{});
    }
}

std::int64_t pieceElements(const OutputPlan& plan)
{
    std::int64_t n = 0;
    for (const Piece& piece : plan.pieces) {
        if (const auto* a = std::get_if<AffinePiece>(&piece))
            n += numElements(a->extents);
        else if (const auto* indexed = std::get_if<IndexPiece>(&piece))
            n += indexed->elements();
        else
            n += std::int64_t(std::get<RowsPiece>(piece).rows.size()) *
                 std::get<RowsPiece>(piece).rowLength;
    }
    return n;
}

} // namespace

std::int64_t planWork(const OpPlan& plan)
{
    std::int64_t work = 0;
    for (const OutputPlan& out : plan.outputs)
        work += pieceElements(out);
    return work;
}

namespace {
// String outputs are bytes or text as the op's first string input is (Tensor::holdsBytes): the
// data an op moves comes first, as NumPy's pad keeps its array's kind whatever the constant's.
// Their item length is the longest of the string inputs' (Tensor::itemLength), as NumPy's
// concatenate makes a |S5 and a |S8 array one |S8 array.
void keepStringKind(std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs)
{
    const auto first = std::find_if(inputs.begin(), inputs.end(),
                                    [](const Tensor& t) { return t.dtype() == DType::String; });
    if (first == inputs.end()) return;
    std::int64_t itemLength = -1;
    for (const Tensor& in : inputs)
        if (in.dtype() == DType::String) itemLength = std::max(itemLength, in.itemLength());
    for (Tensor& out : outputs) {
        out.setHoldsBytes(first->holdsBytes());
        out.setItemLength(itemLength);
    }
}
} // namespace

std::vector<Tensor> executePlan(const OpPlan& plan, const std::vector<Tensor>& inputs,
                                Executor& executor, JobContext* ctx)
{
    std::vector<Tensor> outputs;
    outputs.reserve(plan.outputs.size());
    for (const OutputPlan& out : plan.outputs) {
        if (out.computed.isValid()) {
            outputs.push_back(out.computed);
            continue;
        }
        // A copy of a whole input in its own order is that input: tensors are immutable once
        // handed to an op, so the output shares its buffer (a mapped file's too) instead of
        // allocating and filling as much again. A run of consecutive elements of a mapped file
        // (x[7] of a row-major array) shares the file's pages the same way, as NumPy's view
        // does: they are page cache, read-only, and checked like the input they belong to
        // (checkMappedInputs). Not of an allocated input: a small view would keep its whole
        // buffer from going back to the pool. OutputPlan::sharedRun decides it, so that the
        // limits check such an output as file-backed (OutputPlan::checkSize).
        if (const auto run = out.sharedRun(inputs)) {
            const Tensor& input = inputs[std::size_t(run->slot)];
            const std::int64_t n = numElements(out.shape);
            const bool whole = run->offset == 0 && n == input.size();
            outputs.push_back(whole ? input.reshaped(out.shape)
                                    : input.view(run->offset, out.shape));
            if (ctx) ctx->addWork(n);
            continue;
        }
        adviseScatteredPlanReads(out, inputs);
        Tensor result = Tensor::empty(out.dtype, out.shape);
        visitStorage(out.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            // Huge-page advice for large outputs is given where they are allocated (tensor.cpp).
            const std::int64_t bytes = result.size() * std::int64_t(sizeof(T));
            const bool large = !std::is_same_v<T, std::string> && bytes >= kLargeOutputBytes;
            auto makeMover = [&](int slot) {
                const Tensor& src =
                    slot == kConstantSlot ? out.constants : inputs[std::size_t(slot)];
                return ValueMover<T>{result.data<T>(), src.data<T>(), large};
            };
            runPieces(out, makeMover, executor, ctx);
        });
        outputs.push_back(std::move(result));
    }
    keepStringKind(outputs, inputs);
    return outputs;
}

SourceList planSources(const OpPlan& plan, int output, Executor& executor, JobContext* ctx)
{
    const OutputPlan& out = plan.outputs[std::size_t(output)];
    const std::int64_t n = numElements(out.shape);
    if (out.computed.isValid()) return SourceList(std::size_t(n), kNoSource);
    SourceList sources(static_cast<std::size_t>(n)); // uninitialised: the pieces write each once
    // Which elements were written: cleared on every worker, then marked by the pieces.
    std::vector<std::uint8_t, UninitializedAllocator<std::uint8_t>> written(
        static_cast<std::size_t>(n));
    constexpr std::int64_t kCheckChunk = std::int64_t(1) << 20;
    executor.parallelFor(
        n, kCheckChunk,
        [&](std::int64_t begin, std::int64_t end) {
            std::memset(written.data() + begin, 0, std::size_t(end - begin));
        },
        ctx);
    auto makeMover = [&](int slot) { return SourceMover{sources.data(), written.data(), slot}; };
    runPieces(out, makeMover, executor, ctx);

    // The first element left unwritten, looked for a chunk at a time on every worker.
    std::atomic<std::int64_t> firstUnwritten{n};
    executor.parallelFor(
        n, kCheckChunk,
        [&](std::int64_t begin, std::int64_t end) {
            const void* hole = std::memchr(written.data() + begin, 0, std::size_t(end - begin));
            if (!hole) return;
            const std::int64_t at = static_cast<const std::uint8_t*>(hole) - written.data();
            std::int64_t seen = firstUnwritten.load();
            while (at < seen && !firstUnwritten.compare_exchange_weak(seen, at)) {
            }
        },
        ctx);
    if (firstUnwritten.load() < n)
        throw OpError(ErrorCode::Internal, "left element " + std::to_string(firstUnwritten.load()) +
                                               " of output " + std::to_string(output) +
                                               " unwritten");
    return sources;
}

} // namespace ss
