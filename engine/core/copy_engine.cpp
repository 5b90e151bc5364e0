// SPDX-License-Identifier: GPL-3.0-or-later
// The one copy engine: executes OutputPlans. The same traversal either moves values or writes
// packed source addresses, so `sources` can never disagree with the values.
#include "core/error.h"
#include "core/executor.h"
#include "core/op.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <type_traits>

namespace ss {

namespace {

struct Dim {
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
        if (p.extents[k] == 0)
            return {{0, 0, 0}};
        if (p.extents[k] != 1)
            dims.push_back({p.extents[k], p.inStrides[k], p.outStrides[k]});
    }
    std::stable_sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) {
        return std::abs(a.out) > std::abs(b.out);
    });
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
    if (merged.empty())
        merged.push_back({1, 1, 1});
    return merged;
}

// Moves elements of type T from one source into the output.
template <class T>
struct ValueMover {
    T* out;
    const T* in;

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
                for (std::int64_t k = 0; k < n; ++k)
                    dst[k] = src[-k];
            } else {
                for (std::int64_t k = 0; k < n; ++k)
                    dst[k] = src[k * inStride];
            }
            return;
        }
        for (std::int64_t k = 0; k < n; ++k)
            dst[k * outStride] = src[k * inStride];
    }
};

// Writes where each element would come from instead of moving it.
struct SourceMover {
    std::int64_t* out;
    int slot;

    void run(std::int64_t o, std::int64_t i, std::int64_t n, std::int64_t inStride,
             std::int64_t outStride) const
    {
        if (slot == kConstantSlot) {
            for (std::int64_t k = 0; k < n; ++k)
                out[o + k * outStride] = kNoSource;
            return;
        }
        for (std::int64_t k = 0; k < n; ++k)
            out[o + k * outStride] = packSource(slot, i + k * inStride);
    }
};

template <class Mover>
void runAffine(const AffinePiece& p, const Mover& mv, Executor& ex, JobContext* ctx)
{
    std::vector<Dim> dims = normalise(p);
    if (dims.front().extent == 0)
        return;
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
        constexpr std::int64_t kTile = 32;
        const Dim a = dims[std::size_t(contiguous)];
        dims.erase(dims.begin() + contiguous);
        const std::int64_t tilesA = (a.extent + kTile - 1) / kTile;
        const std::int64_t tilesB = (inner.extent + kTile - 1) / kTile;
        std::int64_t outer = 1;
        for (const Dim& d : dims)
            outer *= d.extent;
        const std::int64_t total = outer * tilesA * tilesB;
        ex.parallelFor(
            total, std::max<std::int64_t>(1, 16384 / (kTile * kTile)),
            [&](std::int64_t begin, std::int64_t end) {
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
                    // Within the tile: rows along the output's contiguous axis (b = inner).
                    const std::int64_t a0 = ta * kTile;
                    const std::int64_t na = std::min(kTile, a.extent - a0);
                    const std::int64_t b0 = tb * kTile;
                    const std::int64_t nb = std::min(kTile, inner.extent - b0);
                    for (std::int64_t x = a0; x < a0 + na; ++x)
                        mv.run(o + x * a.out + b0 * inner.out, i + x * a.in + b0 * inner.in, nb,
                               inner.in, inner.out);
                }
                if (ctx)
                    ctx->addWork((end - begin) * kTile * kTile);
            },
            ctx);
        return;
    }

    std::int64_t outer = 1;
    for (const Dim& d : dims)
        outer *= d.extent;
    ex.parallelFor(
        outer, std::max<std::int64_t>(1, 32768 / inner.extent),
        [&](std::int64_t begin, std::int64_t end) {
            // Odometer over the outer dimensions, started at `begin`.
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
            for (std::int64_t t = begin; t < end; ++t) {
                mv.run(o, i, inner.extent, inner.in, inner.out);
                for (std::size_t k = dims.size(); k-- > 0;) {
                    o += dims[k].out;
                    i += dims[k].in;
                    if (++coord[k] < dims[k].extent)
                        break;
                    o -= dims[k].out * dims[k].extent;
                    i -= dims[k].in * dims[k].extent;
                    coord[k] = 0;
                }
            }
            if (ctx)
                ctx->addWork((end - begin) * inner.extent);
        },
        ctx);
}

template <class MakeMover>
void runRows(const RowsPiece& p, const MakeMover& makeMover, Executor& ex, JobContext* ctx)
{
    const std::int64_t rows = std::int64_t(p.rows.size());
    const std::int64_t len = p.rowLength;
    if (len == 0)
        return;
    ex.parallelFor(
        rows, std::max<std::int64_t>(1, 16384 / len),
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                const std::int64_t src = p.rows[std::size_t(r)];
                const int slot = sourceSlot(src);
                makeMover(slot).run(p.outOffset + r * len, sourceIndex(src), len,
                                    slot == kConstantSlot ? 0 : 1, 1);
            }
            if (ctx)
                ctx->addWork((end - begin) * len);
        },
        ctx);
}

template <class MakeMover>
void runPieces(const OutputPlan& plan, const MakeMover& makeMover, Executor& ex, JobContext* ctx)
{
    for (const Piece& piece : plan.pieces) {
        if (const auto* affine = std::get_if<AffinePiece>(&piece))
            runAffine(*affine, makeMover(affine->slot), ex, ctx);
        else
            runRows(std::get<RowsPiece>(piece), makeMover, ex, ctx);
    }
}

// Element types by width: moving bit patterns keeps NaN payloads and needs only five kernels.
template <class F>
void visitStorage(DType t, F&& f)
{
    if (t == DType::String)
        return f(std::type_identity<std::string>{});
    switch (dtypeSize(t)) {
    case 1: return f(std::type_identity<std::uint8_t>{});
    case 2: return f(std::type_identity<std::uint16_t>{});
    case 4: return f(std::type_identity<std::uint32_t>{});
    default: return f(std::type_identity<std::uint64_t>{});
    }
}

std::int64_t pieceElements(const OutputPlan& plan)
{
    std::int64_t n = 0;
    for (const Piece& piece : plan.pieces) {
        if (const auto* a = std::get_if<AffinePiece>(&piece))
            n += numElements(a->extents);
        else
            n += std::int64_t(std::get<RowsPiece>(piece).rows.size()) *
                 std::get<RowsPiece>(piece).rowLength;
    }
    return n;
}

} // namespace

std::vector<Tensor> executePlan(const OpPlan& plan, const std::vector<Tensor>& inputs,
                                Executor& executor, JobContext* ctx)
{
    std::int64_t work = 0;
    for (const OutputPlan& out : plan.outputs)
        work += pieceElements(out);
    if (ctx)
        ctx->beginWork(work);
    std::vector<Tensor> outputs;
    outputs.reserve(plan.outputs.size());
    for (const OutputPlan& out : plan.outputs) {
        if (out.computed.isValid()) {
            outputs.push_back(out.computed);
            continue;
        }
        Tensor result = Tensor::empty(out.dtype, out.shape);
        visitStorage(out.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            auto makeMover = [&](int slot) {
                const Tensor& src = slot == kConstantSlot ? out.constants : inputs[std::size_t(slot)];
                return ValueMover<T>{result.data<T>(), src.data<T>()};
            };
            runPieces(out, makeMover, executor, ctx);
        });
        outputs.push_back(std::move(result));
    }
    return outputs;
}

std::vector<std::int64_t> planSources(const OpPlan& plan, int output, Executor& executor,
                                      JobContext* ctx)
{
    const OutputPlan& out = plan.outputs[std::size_t(output)];
    if (out.computed.isValid())
        return std::vector<std::int64_t>(std::size_t(numElements(out.shape)), kNoSource);
    std::vector<std::int64_t> sources(std::size_t(numElements(out.shape)), kUnwritten);
    auto makeMover = [&](int slot) { return SourceMover{sources.data(), slot}; };
    runPieces(out, makeMover, executor, ctx);
    return sources;
}

} // namespace ss
