// SPDX-License-Identifier: GPL-3.0-or-later
// Provenance worked out from the plan (AffinePlanMap, IndexPlanMap, RowsPlanMap) against the
// stored path on the same plan: every op's example, every lesson, and thousands of random
// strided slices, transposes, reverses, concats, splits, stacks, unstacks, pads of every mode,
// tiles, gathers, gather_nds, boolean_masks, one_hots, sequence_masks, dynamic_partitions and
// unique_with_counts. Read orders (at(), read() both ways with several steps, and blockMinima),
// summaries, the last read, sources and targets must all agree, and the plan path must really be
// taken where it should (else the comparison proves nothing).
#include "protocol/request.h"
#include "ui/model/affineplanmap.h"
#include "ui/model/engineclient.h"
#include "ui/model/frameworkcomparer.h"
#include "ui/model/indexplanmap.h"
#include "ui/model/lessons.h"
#include "ui/model/rowsplanmap.h"
#include "ui/model/scatterplanmap.h"
#include "ui/model/workerpool.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <sstream>

using namespace ss;
using namespace ss::ui;

Q_DECLARE_METATYPE(std::vector<std::vector<ss::Tensor>>)

namespace {

// What one comparison found: whether the plan path was taken, and the first disagreement.
struct Outcome
{
    bool ran = false;      ///< the op accepted its arguments
    bool analytic = false; ///< a plan map took the plan
    bool indexed = false;  ///< IndexPlanMap did
    bool blocks = false;   ///< ... keeping a position per block of its runs' length over 1
    bool rows = false;     ///< RowsPlanMap did
    bool scatter = false;  ///< ScatterPlanMap did
    std::string error;     ///< empty: both ways agree
};

std::string summaryText(const ReadOrderSummary& s)
{
    return std::to_string(s.selected) + "/" + std::to_string(s.first) + "/" +
           std::to_string(s.last);
}

// Compares two orders of the same tensor element by element and run by run.
std::string compareOrders(const ReadOrderMap& a, const ReadOrderMap& b, const std::string& what,
                          std::mt19937_64& rng)
{
    if (a.size() != b.size()) return what + ": sizes differ";
    const std::int64_t n = a.size();
    for (std::int64_t i = 0; i < n; ++i)
        if (a.at(i) != b.at(i))
            return what + ": at(" + std::to_string(i) + ") " + std::to_string(a.at(i)) +
                   " != " + std::to_string(b.at(i));
    if (n == 0) return {};
    auto runs = [&](std::int64_t first, std::int64_t step, std::int64_t count) -> std::string {
        std::vector<ReadPosition> x(std::size_t(count) + 1, 77), y(std::size_t(count) + 1, 77);
        a.read(first, step, count, x.data());
        b.read(first, step, count, y.data());
        if (x != y)
            return what + ": read(" + std::to_string(first) + ", " + std::to_string(step) + ", " +
                   std::to_string(count) + ") differs";
        return {};
    };
    std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> cases{
        {0, 1, n}, {n - 1, -1, n}, {0, 0, 3}, {n / 2, 1, n - n / 2}, {n - 1, -1, n / 2 + 1}};
    for (int r = 0; r < 12; ++r) {
        const std::int64_t first = std::int64_t(rng() % std::uint64_t(n));
        const std::int64_t steps[] = {1, -1, 2, -2, 3, -5, 7};
        const std::int64_t step = steps[rng() % 7];
        // As many as stay inside the tensor, at least one.
        const std::int64_t room = step > 0 ? (n - 1 - first) / step : first / -step;
        cases.emplace_back(first, step, 1 + std::int64_t(rng() % std::uint64_t(room + 1)));
    }
    // A heat map's selection: each block's lowest position, the run cut into blocks of 1 to 17
    // elements (from its first element, or from a later one), folded into minima set before.
    auto minima = [&](std::int64_t first, std::int64_t step, std::int64_t count) -> std::string {
        std::vector<std::int64_t> edges{count > 1 ? std::int64_t(rng() % 2) : 0};
        while (edges.back() < count)
            edges.push_back(std::min(count, edges.back() + 1 + std::int64_t(rng() % 17)));
        const std::size_t blocks = edges.size() - 1;
        std::vector<ReadRank> x(blocks), y(blocks);
        for (std::size_t i = 0; i < blocks; ++i)
            x[i] = y[i] = rng() % 4 == 0 ? ReadRank(rng() % std::uint64_t(n)) : ReadRank(-1);
        a.blockMinima(first, step, edges.data(), blocks, x.data());
        b.blockMinima(first, step, edges.data(), blocks, y.data());
        if (x != y)
            return what + ": blockMinima(" + std::to_string(first) + ", " + std::to_string(step) +
                   ", " + std::to_string(count) + ") differs";
        return {};
    };
    for (const auto& [first, step, count] : cases) {
        if (auto e = runs(first, step, count); !e.empty()) return e;
        if (auto e = minima(first, step, count); !e.empty()) return e;
    }
    return {};
}

Executor& pool()
{
    static const std::shared_ptr<Executor> executor = WorkerPool::shared();
    return *executor;
}

// The first disagreement between sources from the plan and the stored sources of the same plan
// run on `inputs`, or "".
std::string compareSources(const std::vector<Tensor>& inputs, SourceMap storedSources,
                           SourceMap derivedSources, std::mt19937_64& rng)
{
    const bool indexed = bool(derivedSources.indexPlan());
    // An index plan keeps one position per block of the slot it reads.
    const std::int64_t block = indexed ? derivedSources.indexPlan()->blockLength() : 1;
    const bool rows = bool(derivedSources.rowsPlan());
    std::vector<std::int64_t> sizes;
    for (const Tensor& t : inputs)
        sizes.push_back(t.size());
    JobContext ctx;
    Evaluation stored, derived;
    stored.sources = std::move(storedSources);
    derived.sources = std::move(derivedSources);
    computeReadOrders(inputs, stored, pool(), ctx);
    computeReadOrders(inputs, derived, pool(), ctx);
    auto fail = [](std::string e) { return e; };

    if (stored.lastRead != derived.lastRead)
        return fail("lastRead " + std::to_string(derived.lastRead) +
                    " != " + std::to_string(stored.lastRead));
    if (stored.readOrders.size() != derived.readOrders.size() ||
        stored.outputOrders.size() != derived.outputOrders.size())
        return fail("order counts differ");
    for (std::size_t s = 0; s < stored.readOrders.size(); ++s) {
        if (auto e = compareOrders(*derived.readOrders[s], *stored.readOrders[s],
                                   "input " + std::to_string(s), rng);
            !e.empty())
            return fail(e);
        // An index plan keeps the order of the slot it reads, 4 bytes per block; no other.
        if (derived.readOrders[s]->bytes() != 0 &&
            (!indexed || derived.readOrders[s]->bytes() != (sizes[s] + block - 1) / block * 4))
            return fail("a derived order keeps memory");
        if (summaryText(derived.readSummaries[s]) != summaryText(stored.readSummaries[s]))
            return fail("input " + std::to_string(s) + " summary " +
                        summaryText(derived.readSummaries[s]) +
                        " != " + summaryText(stored.readSummaries[s]));
    }
    for (std::size_t k = 0; k < stored.outputOrders.size(); ++k) {
        if (auto e = compareOrders(*derived.outputOrders[k], *stored.outputOrders[k],
                                   "output " + std::to_string(k), rng);
            !e.empty())
            return fail(e);
        if (derived.outputOrders[k]->bytes() != 0) return fail("a derived order keeps memory");
        if (summaryText(derived.outputSummaries[k]) != summaryText(stored.outputSummaries[k]))
            return fail("output " + std::to_string(k) + " summary differs");
    }
    // Sources, element by element, and targets of every input element (the stored targets
    // from one inversion of the stored lists, so that the check stays linear).
    std::map<std::int64_t, std::vector<std::vector<std::int64_t>>> storedTargets;
    if (derived.sources.outputCount() != stored.sources.outputCount())
        return fail("output counts differ");
    for (int k = 0; k < stored.sources.outputCount(); ++k)
        for (std::int64_t i = 0; i < stored.sources.outputSize(k); ++i) {
            const std::int64_t s = stored.sources.source(k, i);
            if (derived.sources.source(k, i) != s)
                return fail("source of output " + std::to_string(k) + " element " +
                            std::to_string(i));
            auto& t = storedTargets[s];
            t.resize(std::size_t(stored.sources.outputCount()));
            t[std::size_t(k)].push_back(i);
        }
    for (std::size_t s = 0; s < sizes.size(); ++s)
        for (std::int64_t j = 0; j < sizes[s]; ++j) {
            auto expected = storedTargets[packSource(int(s), j)];
            expected.resize(std::size_t(stored.sources.outputCount()));
            if (derived.sources.targets(int(s), j) != expected)
                return fail("targets of input " + std::to_string(s) + " element " +
                            std::to_string(j));
        }
    // A spot check of the stored path's own targets (a scan), so both answers are exercised.
    if (!sizes.empty() && sizes[0] > 0 &&
        derived.sources.targets(0, sizes[0] / 2) != stored.sources.targets(0, sizes[0] / 2))
        return fail("stored targets differ");
    // Only a row-picking plan keeps anything with its sources: its bitmaps, 1/8 byte per input
    // row and output plus a word per 512 rows and 2 bytes per 64 (rounded up to whole words per
    // output); and a row list answered as an index plan its rows' starts (4 bytes each here).
    std::int64_t bound = 0;
    if (rows)
        for (std::int64_t n : sizes)
            bound +=
                RowsPlanMap::kMaxOutputsPerSlot * ((n / 64 + n / 512 + 2) * 8 + (n / 64 + 1) * 2);
    if (indexed) bound = derived.sources.outputSize(0) * 4;
    // A scatter keeps each output row's winner, with a fill a bitmap of the rows written, and
    // each input row's rank: a row per index, and the indices are the first half of the slots.
    if (derived.sources.scatterPlan()) {
        bound =
            derived.sources.outputSize(0) * 4 + RowBitmap::bytesFor(derived.sources.outputSize(0));
        for (std::size_t s = 0; s < sizes.size() / 2; ++s)
            bound += sizes[s] * 4;
    }
    if (derived.sources.bytes() > bound || (!indexed && derived.sources.targetsCost() != 0))
        return fail("the derived sources keep memory");
    return {};
}

Outcome compareBothWays(const OpDef& def, const std::vector<std::vector<Tensor>>& inputs,
                        const Attrs& attrs, std::mt19937_64& rng)
{
    Outcome outcome;
    Request request;
    request.op = &def;
    request.inputs = inputs;
    request.attrs = attrs;
    request.sources = true;
    request.inMemory = true;
    RequestResult run;
    try {
        run = runRequest(request, Limits::machineDefault(), pool());
    } catch (const OpError&) {
        return outcome; // the op refused these arguments: nothing to compare
    }
    outcome.ran = true;
    std::vector<std::int64_t> sizes;
    for (const Tensor& t : run.inputs)
        sizes.push_back(t.size());
    // The evaluation's own choice of map (EngineClient and the Frameworks panel make it so).
    std::optional<SourceMap> fromPlan =
        SourceMap::fromPlan(run.plan, run.inputs, Limits::machineDefault(), nullptr);
    if (!fromPlan) return outcome;
    outcome.analytic = true;
    outcome.indexed = bool(fromPlan->indexPlan());
    outcome.blocks = outcome.indexed && fromPlan->indexPlan()->blockLength() > 1;
    outcome.rows = bool(fromPlan->rowsPlan());
    outcome.scatter = bool(fromPlan->scatterPlan());

    outcome.error = compareSources(run.inputs, SourceMap(run.sources), std::move(*fromPlan), rng);
    if (!outcome.error.empty()) outcome.error = def.name + ": " + outcome.error;
    return outcome;
}

Tensor arange(const Shape& shape)
{
    InputSource source;
    source.dtype = DType::Int32;
    source.shape = shape;
    source.fill = FillKind::Arange;
    return materialize(source, Limits::machineDefault());
}

std::vector<std::vector<Tensor>> materializeAll(const Workspace& ws)
{
    std::vector<std::vector<Tensor>> inputs;
    for (const auto& list : ws.inputs) {
        inputs.emplace_back();
        for (const InputSource& s : list)
            inputs.back().push_back(materialize(s, Limits::machineDefault()));
    }
    return inputs;
}

Shape randomShape(std::mt19937_64& rng, int minRank = 1)
{
    const int rank = minRank + int(rng() % std::uint64_t(6 - minRank));
    Shape shape;
    for (int d = 0; d < rank; ++d)
        // Mostly 1-4, sometimes 0 (an empty tensor).
        shape.push_back(rng() % 12 == 0 ? 0 : 1 + std::int64_t(rng() % 4));
    return shape;
}

std::int64_t randomIn(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi)
{
    return lo + std::int64_t(rng() % std::uint64_t(hi - lo + 1));
}

// A Python subscript over `rank` dimensions: indices, slices with any of begin, end and step
// (negative too), None and at most one Ellipsis.
std::string randomSubscript(std::mt19937_64& rng, std::size_t rank)
{
    std::ostringstream e;
    e << "x[";
    const int items = int(randomIn(rng, 1, std::int64_t(rank) + 2));
    bool ellipsis = false;
    for (int i = 0; i < items; ++i) {
        if (i) e << ", ";
        const auto kind = rng() % 10;
        if (kind == 0) {
            e << "None";
        } else if (kind == 1 && !ellipsis) {
            e << "...";
            ellipsis = true;
        } else if (kind == 2) {
            e << randomIn(rng, -4, 3);
        } else {
            if (rng() % 3) e << randomIn(rng, -6, 6);
            e << ":";
            if (rng() % 3) e << randomIn(rng, -6, 6);
            if (rng() % 2) {
                std::int64_t step = randomIn(rng, -3, 3);
                if (step == 0) step = 1;
                e << ":" << step;
            }
        }
    }
    e << "]";
    return e.str();
}

Attr ints(const std::vector<std::int64_t>& v)
{
    return Attr::ints(v);
}

// A tensor of any integer or bool dtype holding `values`.
Tensor tensorOf(DType dtype, const Shape& shape, const std::vector<std::int64_t>& values)
{
    Tensor t = Tensor::empty(dtype, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.setFromInt(i, values[std::size_t(i)]);
    return t;
}

// `n` random values in [lo, hi].
std::vector<std::int64_t> randomValues(std::mt19937_64& rng, std::int64_t n, std::int64_t lo,
                                       std::int64_t hi)
{
    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < n; ++i)
        values.push_back(randomIn(rng, lo, hi));
    return values;
}

} // namespace

class TestAffinePlanMap : public QObject
{
    Q_OBJECT
private slots:
    void everyExample();
    void everyLesson();
    void randomSlices();
    void randomMoves();
    void randomPads();
    void randomTiles();
    void randomGathers();
    void randomMasks();
    void randomOneHots();
    void randomPartitions();
    void randomUniques();
    void randomStitches();
    void stitchesOfPermutationsRankByTheirIndices();
    void mapBuffersArePooled_data();
    void mapBuffersArePooled();
    void frameworkResults();
    void evaluationKeepsNoSources();
    void uniqueOfDistinctValuesSharesItsInput();
    void positionsPastThirtyTwoBits();
};

void TestAffinePlanMap::everyExample()
{
    std::mt19937_64 rng(1);
    std::set<std::string> analytic, stored;
    for (const OpDef& def : allOps()) {
        const Workspace ws = exampleWorkspace(def);
        std::vector<std::vector<Tensor>> inputs;
        try {
            inputs = materializeAll(ws);
        } catch (const OpError&) {
            continue;
        }
        const Outcome o = compareBothWays(def, inputs, ws.attrs, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        (o.analytic ? analytic : stored).insert(def.name);
    }
    // The plan path is taken where it should be, and only there.
    for (const char* name :
         {"strided_slice", "getitem", "transpose", "reverse", "concat", "split", "stack", "unstack",
          "pad", "tile", "gather", "gather_nd", "boolean_mask", "one_hot", "sequence_mask",
          "unique_with_counts", "dynamic_partition"})
        QVERIFY2(analytic.count(name), name);
    QVERIFY(analytic.count("dynamic_stitch"));
}

void TestAffinePlanMap::everyLesson()
{
    std::mt19937_64 rng(2);
    int compared = 0;
    for (const Lesson& lesson : lessons()) {
        if (!lesson.unavailable.isEmpty()) continue;
        const OpDef* def = findOp(lesson.workspace.op);
        QVERIFY(def);
        const Outcome o =
            compareBothWays(*def, materializeAll(lesson.workspace), lesson.workspace.attrs, rng);
        QVERIFY2(o.error.empty(), (lesson.name.toStdString() + ": " + o.error).c_str());
        compared += o.analytic;
    }
    QVERIFY(compared > 10);
}

void TestAffinePlanMap::randomSlices()
{
    std::mt19937_64 rng(3);
    const OpDef* getitem = findOp("getitem");
    const OpDef* raw = findOp("strided_slice");
    int analytic = 0;
    for (int round = 0; round < 2000; ++round) {
        const Shape shape = randomShape(rng);
        const Tensor x = arange(shape);
        const std::string expr = randomSubscript(rng, shape.size());
        Outcome o = compareBothWays(*getitem, {{x}}, {{"expr", Attr(expr)}}, rng);
        QVERIFY2(o.error.empty(),
                 (expr + " on rank " + std::to_string(shape.size()) + ": " + o.error).c_str());
        analytic += o.analytic;

        // The raw op with random masks (many are refused, which is fine).
        const std::size_t n = 1 + rng() % (shape.size() + 1);
        std::vector<std::int64_t> begin, end, strides;
        for (std::size_t d = 0; d < n; ++d) {
            begin.push_back(randomIn(rng, -5, 5));
            end.push_back(randomIn(rng, -5, 5));
            std::int64_t s = randomIn(rng, -3, 3);
            strides.push_back(s == 0 ? 1 : s);
        }
        const auto mask = [&] { return Attr(std::int64_t(rng() % (std::uint64_t(1) << n))); };
        Attrs attrs{{"begin", ints(begin)},
                    {"end", ints(end)},
                    {"strides", ints(strides)},
                    {"begin_mask", mask()},
                    {"end_mask", mask()},
                    {"shrink_axis_mask", mask()},
                    {"new_axis_mask", rng() % 3 ? Attr(0) : mask()},
                    {"ellipsis_mask", rng() % 4 ? Attr(0) : Attr(std::int64_t(1) << (rng() % n))}};
        o = compareBothWays(*raw, {{x}}, attrs, rng);
        QVERIFY2(o.error.empty(), ("strided_slice: " + o.error).c_str());
        analytic += o.analytic;
    }
    QVERIFY(analytic > 1000);
}

void TestAffinePlanMap::randomMoves()
{
    std::mt19937_64 rng(4);
    int analytic = 0;
    for (int round = 0; round < 400; ++round) {
        const Shape shape = randomShape(rng);
        const auto rank = std::int64_t(shape.size());
        const Tensor x = arange(shape);

        std::vector<std::int64_t> perm(shape.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        Outcome o = compareBothWays(*findOp("transpose"), {{x}}, {{"perm", ints(perm)}}, rng);
        QVERIFY2(o.ran && o.error.empty(), ("transpose: " + o.error).c_str());
        analytic += o.analytic;

        std::vector<std::int64_t> axes;
        for (std::int64_t d = 0; d < rank; ++d)
            if (rng() % 2) axes.push_back(rng() % 2 ? d : d - rank);
        o = compareBothWays(*findOp("reverse"), {{x}}, {{"axis", ints(axes)}}, rng);
        QVERIFY2(o.ran && o.error.empty(), ("reverse: " + o.error).c_str());
        analytic += o.analytic;

        // Joined and cut along a random axis: concat of pieces of random lengths there.
        const std::int64_t axis = randomIn(rng, 0, rank - 1);
        std::vector<Tensor> parts;
        std::vector<std::int64_t> lengths;
        for (int p = 0, count = int(randomIn(rng, 1, 4)); p < count; ++p) {
            Shape s = shape;
            s[std::size_t(axis)] = randomIn(rng, 0, 3);
            lengths.push_back(s[std::size_t(axis)]);
            parts.push_back(arange(s));
        }
        o = compareBothWays(*findOp("concat"), {parts}, {{"axis", Attr(axis)}}, rng);
        QVERIFY2(o.ran && o.error.empty(), ("concat: " + o.error).c_str());
        analytic += o.analytic;

        std::int64_t total = 0;
        for (std::int64_t l : lengths)
            total += l;
        Shape joined = shape;
        joined[std::size_t(axis)] = total;
        o = compareBothWays(*findOp("split"), {{arange(joined)}},
                            {{"num_or_size_splits", ints(lengths)}, {"axis", Attr(axis)}}, rng);
        QVERIFY2(o.ran && o.error.empty(), ("split: " + o.error).c_str());
        analytic += o.analytic;

        std::vector<Tensor> same(std::size_t(randomIn(rng, 1, 3)), x);
        o = compareBothWays(*findOp("stack"), {same}, {{"axis", Attr(randomIn(rng, 0, rank))}},
                            rng);
        QVERIFY2(o.ran && o.error.empty(), ("stack: " + o.error).c_str());
        analytic += o.analytic;

        o = compareBothWays(*findOp("unstack"), {{x}}, {{"axis", Attr(axis)}}, rng);
        QVERIFY2(o.ran && o.error.empty(), ("unstack: " + o.error).c_str());
        analytic += o.analytic;
    }
    // Every one of them copies each element once: the plan path must take all.
    QCOMPARE(analytic, 400 * 6);
}

// A constant pad is its input in a border of constants: the positions count the input's
// elements alone, in output order (the stored orders skip the constants). REFLECT and SYMMETRIC
// read border elements twice: an element's position is the rank of its first read among all
// first reads, worked out dimension by dimension.
void TestAffinePlanMap::randomPads()
{
    std::mt19937_64 rng(5);
    const OpDef* pad = findOp("pad");
    std::map<std::string, std::pair<int, int>> taken; // per mode: ran, took the plan path
    for (int round = 0; round < 500; ++round) {
        const Shape shape = randomShape(rng);
        const Tensor x = arange(shape);
        const char* mode = rng() % 3 == 0 ? "CONSTANT" : rng() % 2 == 0 ? "SYMMETRIC" : "REFLECT";
        // Mostly within what the mode allows (REFLECT: under the dimension, SYMMETRIC: up to
        // it), sometimes past it (refused).
        const bool past = rng() % 10 == 0;
        Attr::List paddings;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            const std::int64_t most = std::string(mode) == "REFLECT"     ? shape[d] - 1
                                      : std::string(mode) == "SYMMETRIC" ? shape[d]
                                                                         : 3;
            const std::int64_t high = std::max<std::int64_t>(0, std::min<std::int64_t>(most, 3));
            Attr::List pair;
            pair.push_back(Attr(randomIn(rng, 0, high + past)));
            pair.push_back(Attr(randomIn(rng, 0, high + past)));
            paddings.push_back(Attr(pair));
        }
        const Outcome o = compareBothWays(*pad, {{x}},
                                          {{"paddings", Attr(paddings)},
                                           {"mode", Attr(std::string(mode))},
                                           {"constant_values", Attr(std::int64_t(-1))}},
                                          rng);
        QVERIFY2(o.error.empty(), (std::string(mode) + ": " + o.error).c_str());
        if (o.ran && numElements(shape) > 0) {
            ++taken[mode].first;
            taken[mode].second += o.analytic;
        }
    }
    // Every pad of a non-empty input takes the plan path, whatever its mode.
    for (const char* mode : {"CONSTANT", "REFLECT", "SYMMETRIC"}) {
        QVERIFY2(taken[mode].first > 90, mode);
        QCOMPARE(taken[mode].second, taken[mode].first);
    }
}

// A tile reads its whole input in input order once, then again for every repetition: read
// positions are input indices, and an input element's targets are all its copies.
void TestAffinePlanMap::randomTiles()
{
    std::mt19937_64 rng(6);
    const OpDef* tile = findOp("tile");
    int analytic = 0, repeating = 0;
    for (int round = 0; round < 600; ++round) {
        const Shape shape = randomShape(rng);
        std::vector<std::int64_t> multiples;
        bool repeats = false;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            multiples.push_back(randomIn(rng, 0, 3));
            repeats = repeats || (multiples.back() > 1 && shape[d] > 0);
        }
        const Outcome o =
            compareBothWays(*tile, {{arange(shape)}}, {{"multiples", ints(multiples)}}, rng);
        QVERIFY2(o.ran && o.error.empty(), ("tile: " + o.error).c_str());
        if (repeats && numElements(shape) > 0 &&
            std::find(multiples.begin(), multiples.end(), 0) == multiples.end()) {
            ++repeating;
            analytic += o.analytic;
        }
    }
    // Every tile that repeats a non-empty input takes the plan path.
    QVERIFY(repeating > 100);
    QCOMPARE(analytic, repeating);
}

// A gather's rows are picked by its indices, read in place: sources from the indices, targets
// from a scan of them, and the params' read order numbered in one pass (indices repeat, skip and
// go backwards). gather with an axis and batch_dims, gather_nd with tuples of every depth. A
// gather whose one index per row picks distinct rows in order takes the row bitmaps instead.
void TestAffinePlanMap::randomGathers()
{
    std::mt19937_64 rng(7);
    const OpDef* gather = findOp("gather");
    const OpDef* gatherNd = findOp("gather_nd");
    int ran = 0, indexed = 0, rows = 0, blocks = 0;
    for (int round = 0; round < 300; ++round) {
        const Shape ps = randomShape(rng);
        const auto r = std::int64_t(ps.size());
        const DType type = rng() % 3 == 0 ? DType::Int64 : rng() % 2 ? DType::Int32 : DType::Int16;
        const bool nd = round % 2 == 1;
        // batch_dims 1 sometimes: the indices share params' first dimension.
        const std::int64_t batch = r >= 2 && rng() % 3 == 0 ? 1 : 0;
        Shape is;
        if (batch) is.push_back(ps[0]);
        for (std::int64_t d = 0, extra = randomIn(rng, nd ? 0 : 0, 2); d < extra; ++d)
            is.push_back(randomIn(rng, 1, 4));
        std::vector<std::int64_t> values;
        Attrs attrs{{"batch_dims", Attr(batch)}};
        if (!nd) {
            const std::int64_t axis = randomIn(rng, batch, r - 1);
            attrs["axis"] = Attr(rng() % 2 ? axis : axis - r);
            const std::int64_t n = numElements(is);
            for (std::int64_t k = 0; k < n; ++k)
                values.push_back(
                    randomIn(rng, 0, std::max<std::int64_t>(0, ps[std::size_t(axis)] - 1)));
        } else {
            const std::int64_t depth = randomIn(rng, 1, r - batch);
            is.push_back(depth);
            const std::int64_t tuples = numElements(is) / depth;
            for (std::int64_t t = 0; t < tuples; ++t)
                for (std::int64_t c = 0; c < depth; ++c)
                    values.push_back(randomIn(
                        rng, 0, std::max<std::int64_t>(0, ps[std::size_t(batch + c)] - 1)));
        }
        const Tensor indices = Tensor::fromInts(type, is, values);
        const Outcome o =
            compareBothWays(nd ? *gatherNd : *gather, {{arange(ps)}, {indices}}, attrs, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        if (o.ran && numElements(ps) > 0 && !values.empty()) {
            ++ran;
            indexed += o.indexed;
            rows += o.rows;
            blocks += o.blocks;
        }
    }
    // Every gather that copies something takes the index plan's path, or the rows' where its
    // rows are distinct and in order; the index plan's order is kept per row where rows are
    // longer than an element (any axis but the last).
    QVERIFY(ran > 150);
    QCOMPARE(indexed + rows, ran);
    QVERIFY2(indexed > 100 && rows > 20 && blocks > 30,
             (std::to_string(indexed) + " " + std::to_string(rows) + " " + std::to_string(blocks))
                 .c_str());
}

// boolean_mask picks the rows of its true mask entries, in order, in every outer block: the
// input's read order is a rank in the rows picked, an output element's source a select.
void TestAffinePlanMap::randomMasks()
{
    std::mt19937_64 rng(8);
    const OpDef* mask = findOp("boolean_mask");
    int ran = 0, analytic = 0, rows = 0;
    for (int round = 0; round < 200; ++round) {
        // Now and then a mask of thousands of rows, so that the bitmaps span many words and
        // their rank samples (one per 512 rows) are used.
        const Shape shape =
            round % 10 == 0 ? Shape{2, randomIn(rng, 1000, 3000), 2} : randomShape(rng);
        const auto r = std::int64_t(shape.size());
        const std::int64_t axis = randomIn(rng, 0, r - 1);
        const std::int64_t k = randomIn(rng, 1, r - axis);
        const Shape ms(shape.begin() + axis, shape.begin() + axis + k);
        // All false, all true, or each true with a random density.
        const auto kind = rng() % 4;
        const std::int64_t percent = randomIn(rng, 0, 100);
        std::vector<std::int64_t> bits;
        for (std::int64_t i = 0; i < numElements(ms); ++i)
            bits.push_back(kind == 0   ? 0
                           : kind == 1 ? 1
                                       : std::int64_t(randomIn(rng, 1, 100) <= percent));
        const Attrs attrs{{"axis", Attr(rng() % 2 ? axis : axis - r)}};
        const Outcome o = compareBothWays(
            *mask, {{arange(shape)}, {tensorOf(DType::Bool, ms, bits)}}, attrs, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        if (o.ran) {
            ++ran;
            analytic += o.analytic;
            rows += o.rows;
        }
    }
    // Every mask takes a plan's path: the row-picking plan's, or the affine plan's for a mask
    // whose true entries are one run (all true, or few rows: a slice) and for an empty output
    // (no true entry, or an empty tensor), which has no piece. A negative axis whose slice of
    // the shape runs past its end is refused, as in TensorFlow.
    QVERIFY2(ran > 125, std::to_string(ran).c_str());
    QCOMPARE(analytic, ran);
    QVERIFY2(rows >= 10, std::to_string(rows).c_str());
}

// one_hot and sequence_mask are all constants: nothing is read, every source is none.
void TestAffinePlanMap::randomOneHots()
{
    std::mt19937_64 rng(9);
    const OpDef* oneHot = findOp("one_hot");
    const OpDef* sequenceMask = findOp("sequence_mask");
    int ran = 0, analytic = 0;
    for (int round = 0; round < 150; ++round) {
        Shape shape = randomShape(rng);
        shape.resize(
            std::size_t(randomIn(rng, 0, std::int64_t(std::min<std::size_t>(3, shape.size())))));
        const std::int64_t depth = randomIn(rng, 0, 4);
        const DType types[] = {DType::Int32, DType::Int64, DType::UInt8, DType::Int8};
        const DType type = types[rng() % 4];
        const auto values =
            randomValues(rng, numElements(shape), type == DType::UInt8 ? 0 : -1, depth);
        const auto rank = std::int64_t(shape.size());
        Attrs attrs{{"depth", Attr(depth)},
                    {"on_value", Attr(std::int64_t(5))},
                    {"off_value", Attr(std::int64_t(-2))}};
        if (rng() % 2) attrs["axis"] = Attr(randomIn(rng, 0, rank));
        Outcome o = compareBothWays(*oneHot, {{tensorOf(type, shape, values)}}, attrs, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        ran += o.ran;
        analytic += o.analytic;

        Attrs maskAttrs;
        if (rng() % 2) maskAttrs["maxlen"] = Attr(randomIn(rng, 0, 5));
        o = compareBothWays(
            *sequenceMask,
            {{tensorOf(DType::Int32, shape, randomValues(rng, numElements(shape), -1, 5))}},
            maskAttrs, rng);
        QVERIFY2(o.error.empty(), ("sequence_mask: " + o.error).c_str());
        ran += o.ran;
        analytic += o.analytic;
    }
    QVERIFY(ran > 250);
    QCOMPARE(analytic, ran);
}

// dynamic_partition sends every row of data to one output, in order: each output picks rows in
// increasing order and no two share one. More outputs than RowsPlanMap takes keep stored sources.
void TestAffinePlanMap::randomPartitions()
{
    std::mt19937_64 rng(10);
    const OpDef* partition = findOp("dynamic_partition");
    int ran = 0, rows = 0;
    for (int round = 0; round < 200; ++round) {
        const bool many = rng() % 10 == 0;
        Shape shape = randomShape(rng);
        std::int64_t n = randomIn(rng, 1, 5);
        Shape ps(shape.begin(), shape.begin() + randomIn(rng, 0, std::int64_t(shape.size())));
        std::vector<std::int64_t> values = randomValues(rng, numElements(ps), 0, n - 1);
        if (many) {
            // Every one of more outputs than RowsPlanMap takes gets a row.
            n = RowsPlanMap::kMaxOutputsPerSlot + 1;
            shape = {n + 3, randomIn(rng, 1, 3)};
            ps = {n + 3};
            values.clear();
            for (std::int64_t i = 0; i < n + 3; ++i)
                values.push_back(i % n);
            std::shuffle(values.begin(), values.end(), rng);
        }
        const Outcome o =
            compareBothWays(*partition, {{arange(shape)}, {tensorOf(DType::Int32, ps, values)}},
                            {{"num_partitions", Attr(n)}}, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        if (many) {
            QVERIFY(o.ran && !o.analytic);
        } else if (o.ran) {
            ++ran;
            rows += o.rows;
        }
    }
    QVERIFY(ran > 150);
    QCOMPARE(rows, ran);
}

// unique_with_counts' y copies each distinct value's first occurrence, in order; idx and count
// are computed and read nothing.
void TestAffinePlanMap::randomUniques()
{
    std::mt19937_64 rng(11);
    const OpDef* unique = findOp("unique_with_counts");
    int ran = 0, rows = 0;
    for (int round = 0; round < 150; ++round) {
        // Now and then thousands of elements, most of them distinct (many rank samples).
        const bool large = round % 10 == 0;
        const std::int64_t n = large ? randomIn(rng, 1000, 3000) : randomIn(rng, 0, 30);
        const std::int64_t spread = large ? n : randomIn(rng, 0, 40);
        const DType type = rng() % 2 ? DType::Int32 : DType::Int64;
        const Outcome o =
            compareBothWays(*unique, {{tensorOf(type, {n}, randomValues(rng, n, -spread, spread))}},
                            {{"out_idx", Attr(std::string(rng() % 2 ? "int32" : "int64"))}}, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        if (o.ran) {
            ++ran;
            rows += o.rows;
        }
    }
    QVERIFY(ran > 125);
    QCOMPARE(rows, ran);
}

// dynamic_stitch scatters the rows of every data tensor to the rows its indices name, a later one
// winning, and fills the rows none names with zeros: an output row's source is its last writer,
// an input row is read only if it is one.
void TestAffinePlanMap::randomStitches()
{
    std::mt19937_64 rng(13);
    const OpDef* stitch = findOp("dynamic_stitch");
    int ran = 0, scattered = 0;
    for (int round = 0; round < 200; ++round) {
        const bool large = round % 20 == 0;
        Shape slice;
        for (std::int64_t d = 0, rank = randomIn(rng, 0, 2); d < rank; ++d)
            slice.push_back(randomIn(rng, 1, 3));
        const std::int64_t targets = large ? randomIn(rng, 1000, 2000) : randomIn(rng, 1, 8);
        std::vector<Tensor> indices, data;
        for (std::int64_t m = 0, count = randomIn(rng, 1, 3); m < count; ++m) {
            Shape is;
            for (std::int64_t d = 0, rank = randomIn(rng, 0, 2); d < rank; ++d)
                is.push_back(large ? randomIn(rng, 20, 40) : randomIn(rng, 0, 3));
            indices.push_back(
                tensorOf(DType::Int32, is, randomValues(rng, numElements(is), 0, targets - 1)));
            Shape ds = is;
            ds.insert(ds.end(), slice.begin(), slice.end());
            data.push_back(arange(ds));
        }
        const Outcome o = compareBothWays(*stitch, {indices, data}, {}, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        if (o.ran) {
            ++ran;
            scattered += o.scatter;
        }
    }
    // Every stitch that writes something takes the scatter plan's path.
    QVERIFY(ran > 150);
    QVERIFY2(scattered > 125, std::to_string(scattered).c_str());
}

// The Frameworks panel shows a framework's result with provenance from its plan too: a slice's
// by its affine map, integer array indexing (NumPy, PyTorch, JAX: a row list, one element per
// row) by the row-picking map where it reads elements in order and by the index plan's map
// otherwise (repeated, backwards). Each agrees with the stored path on the same plan.
void TestAffinePlanMap::frameworkResults()
{
    std::mt19937_64 rng(12);
    int results = 0, indexed = 0, rows = 0;
    for (const char* expr :
         {"x[[2, 0, 2]]", "x[[0, 1], ::-1]", "x[:, [3, 1]]", "x[[1, 2], [0, 3]]",
          "x[1:, [0, 0, 2]]", "x[[0, 2]]", "x[:, [1, 2]]", "x[::-1, 1:]", "x[[-1, 0]]"}) {
        auto base = std::make_shared<Evaluation>();
        base->op = "getitem";
        base->attrs = {{"expr", Attr(std::string(expr))}};
        base->inputs = {{arange({3, 4})}};
        for (Framework framework : {Framework::NumPy, Framework::PyTorch, Framework::Jax}) {
            JobContext ctx;
            const auto report =
                FrameworkComparer::run(base, framework, Limits::machineDefault(), pool(), ctx);
            QVERIFY2(report->error.isEmpty(), qPrintable(report->error));
            const FrameworkOutcome& outcome = report->comparison.outcomes[std::size_t(framework)];
            if (outcome.kind != FrameworkOutcome::Kind::Result) continue;
            const Evaluation& chosen = *report->chosenEvaluation;
            QVERIFY(chosen.ok);
            QVERIFY2(chosen.sources.stored().empty(), expr);
            ++results;
            indexed += bool(chosen.sources.indexPlan());
            rows += bool(chosen.sources.rowsPlan());
            std::vector<SourceList> stored;
            for (int k = 0; k < int(outcome.plan.outputs.size()); ++k)
                stored.push_back(planSources(outcome.plan, k, pool()));
            const std::string e = compareSources(base->slotTensors(), SourceMap(std::move(stored)),
                                                 chosen.sources, rng);
            QVERIFY2(e.empty(), (std::string(expr) + ": " + e).c_str());
        }
    }
    QVERIFY(results > 20);
    QVERIFY(indexed > 5);
    QVERIFY(rows > 5);
}

// What a map keeps per row (a stitch's ranks, 4 bytes per input row) or per element (a gather's
// params order where its rows are single elements) comes from the tensors' pool, so that the next
// edit's map reuses the buffer the last but one freed: from the heap, the map on show kept the
// block, and at 10^7 rows every other edit grew the heap by 10^4 fresh pages. 3 x 10^6 rows:
// 12 MB of int32, over the pool's 8 MiB.
constexpr std::int64_t kPooledRows = 3000000;

void TestAffinePlanMap::mapBuffersArePooled_data()
{
    // kPooledRows rows, two of them read (out of order: not the rows' bitmaps), or all written to
    // one: a tiny output beside 12 MB kept.
    constexpr std::int64_t rows = kPooledRows;
    QTest::addColumn<QString>("op");
    QTest::addColumn<std::vector<std::vector<Tensor>>>("inputs");
    QTest::newRow("dynamic_stitch's ranks")
        << "dynamic_stitch"
        << std::vector<std::vector<Tensor>>{{Tensor::zeros(DType::Int32, {rows})},
                                            {arange({rows})}};
    QTest::newRow("gather's params order")
        << "gather"
        << std::vector<std::vector<Tensor>>{{arange({rows})},
                                            {Tensor::fromInts(DType::Int32, {2}, {1, 0})}};
}

void TestAffinePlanMap::mapBuffersArePooled()
{
    QFETCH(QString, op);
    QFETCH(std::vector<std::vector<Tensor>>, inputs);
    Request request;
    request.op = findOp(op.toStdString());
    request.inputs = inputs;
    request.sources = true;
    request.inMemory = true;
    const RequestResult run = runRequest(request, Limits::machineDefault(), pool());
    releasePooledBuffers();
    const std::int64_t kept = kPooledRows * 4;
    {
        const std::optional<SourceMap> map =
            SourceMap::fromPlan(run.plan, run.inputs, Limits::machineDefault(), nullptr);
        QVERIFY(map && (map->scatterPlan() || map->indexPlan()));
    }
    // Its buffer is kept for the next map: none is made for a request of its size.
    QVERIFY(!prepareReusableBuffer(kept));
}

// A stitch whose indices name every output row once (a permutation, in one index tensor or
// split over several) reads each input row as the row it names: its map keeps no ranks (at 10^7
// rows a 40 MB buffer of the pool, fresh in a window's first evaluation) and answers as the
// stored sources do.
void TestAffinePlanMap::stitchesOfPermutationsRankByTheirIndices()
{
    std::mt19937_64 rng(14);
    const OpDef* stitch = findOp("dynamic_stitch");
    for (int round = 0; round < 40; ++round) {
        const std::int64_t targets = round % 10 == 0 ? 3000 : randomIn(rng, 1, 9);
        std::vector<std::int64_t> rows(static_cast<std::size_t>(targets));
        std::iota(rows.begin(), rows.end(), 0);
        std::shuffle(rows.begin(), rows.end(), rng);
        const Shape slice = round % 3 == 0 ? Shape{2} : Shape{};
        std::vector<Tensor> indices, data;
        const auto split = std::size_t(randomIn(rng, 0, targets));
        for (const auto& [from, to] : {std::pair<std::size_t, std::size_t>(0, split),
                                       std::pair<std::size_t, std::size_t>(split, rows.size())}) {
            const std::vector<std::int64_t> part(rows.begin() + std::ptrdiff_t(from),
                                                 rows.begin() + std::ptrdiff_t(to));
            indices.push_back(tensorOf(DType::Int32, {std::int64_t(part.size())}, part));
            Shape ds{std::int64_t(part.size())};
            ds.insert(ds.end(), slice.begin(), slice.end());
            data.push_back(arange(ds));
        }
        const Outcome o = compareBothWays(*stitch, {indices, data}, {}, rng);
        QVERIFY2(o.error.empty(), o.error.c_str());
        QVERIFY(o.ran && o.scatter);
    }

    // kPooledRows rows reversed: the map takes no buffer of their size from the pool, so the
    // pool still has none after it is gone.
    std::vector<std::int64_t> reversed(static_cast<std::size_t>(kPooledRows));
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    Request request;
    request.op = stitch;
    request.inputs = {{tensorOf(DType::Int32, {kPooledRows}, reversed)}, {arange({kPooledRows})}};
    request.sources = true;
    request.inMemory = true;
    const RequestResult run = runRequest(request, Limits::machineDefault(), pool());
    releasePooledBuffers();
    {
        const std::optional<SourceMap> map =
            SourceMap::fromPlan(run.plan, run.inputs, Limits::machineDefault(), nullptr);
        QVERIFY(map && map->scatterPlan());
        QCOMPARE(map->scatterPlan()->bytes(),
                 kPooledRows * 4 + RowBitmap::bytesFor(kPooledRows)); // the winners, asked later
        QCOMPARE(map->scatterPlan()->inputPosition(1, 0), ReadPosition(kPooledRows - 1)); // data[0]
    }
    QVERIFY(prepareReusableBuffer(kPooledRows * 4));
    releasePooledBuffers();
}

void TestAffinePlanMap::evaluationKeepsNoSources()
{
    // What the workbench does: a slice, a constant pad, a tile and a mirror pad are evaluated
    // with no sources and no stored order at all; a gather keeps no sources and only its
    // params' read order (which depends on every index before a row's first read), per row; the
    // row-picking ops keep only their bitmaps (a word per 64 input rows and output, one per 512
    // and 2 bytes per 64: two words and 2 bytes per reading output for an example),
    // dynamic_stitch the rows written, each input row's rank and, once a source is asked for,
    // the last writer of each output row (its position depends on every later index).
    const std::set<std::string> rowPicking{"boolean_mask", "one_hot", "sequence_mask",
                                           "unique_with_counts", "dynamic_partition"};
    for (std::string op :
         {"getitem", "pad", "tile", "gather", "pad REFLECT", "boolean_mask", "one_hot",
          "sequence_mask", "unique_with_counts", "dynamic_partition", "dynamic_stitch"}) {
        EngineClient client;
        QSignalSpy evaluated(&client, &EngineClient::evaluated);
        const bool mirror = op == "pad REFLECT";
        if (mirror) op = "pad";
        Workspace ws = exampleWorkspace(*findOp(op));
        if (mirror) ws.attrs["mode"] = Attr(std::string("REFLECT"));
        client.evaluate(ws);
        QVERIFY(evaluated.wait(10000));
        const auto eval = evaluated.front().front().value<std::shared_ptr<const Evaluation>>();
        QVERIFY(eval->ok);
        const bool indexed = op == "gather";
        const bool rows = rowPicking.count(op) > 0;
        const bool scatter = op == "dynamic_stitch";
        QCOMPARE(bool(eval->sources.plan()), !indexed && !rows && !scatter);
        QCOMPARE(bool(eval->sources.indexPlan()), indexed);
        QCOMPARE(bool(eval->sources.rowsPlan()), rows);
        QCOMPARE(bool(eval->sources.scatterPlan()), scatter);
        QVERIFY(eval->sources.stored().empty());
        if (rows)
            QVERIFY(eval->sources.bytes() <= 18 * eval->sources.outputCount());
        else if (scatter) { // a winner per output row, the rows written, a rank per index
            std::int64_t indices = 0;
            for (const Tensor& t : eval->inputs.front())
                indices += t.size();
            QVERIFY(eval->sources.bytes() <=
                    eval->outputs.front().shape().front() * 4 +
                        RowBitmap::bytesFor(eval->outputs.front().shape().front()) + indices * 4);
        } else
            QCOMPARE(eval->sources.bytes(), 0);
        std::int64_t orderBytes = 0;
        for (const auto* orders : {&eval->readOrders, &eval->outputOrders})
            for (const ReadOrder& order : *orders)
                orderBytes += order->bytes();
        // The gather's params order: a position per row it may pick (the example gathers rows).
        QCOMPARE(orderBytes, indexed ? eval->inputs.front().front().shape().front() * 4 : 0);
        // x[1:, ::-2] of a 3x4 arange starts at x[1, 3]; the pad's corner is its constant; the
        // tile starts with the input's first element.
        // A mirror pad of [[1, 1], [2, 2]] around a 2x3 input starts with x[1, 2], and reads
        // every input element, each before any is read again.
        if (mirror) {
            QCOMPARE(eval->sources.source(0, 0), packSource(0, 5));
            QCOMPARE(eval->readSummaries.front().selected, 6);
            QCOMPARE(eval->lastRead, 5);
            // x[1, 2] lands in rows 0 and 2, columns 0 and 4 of the 4x7 output.
            QCOMPARE(eval->sources.targets(0, 5).front(),
                     (std::vector<std::int64_t>{0, 4, 14, 18}));
        } else if (op == "getitem")
            QCOMPARE(eval->sources.source(0, 0), packSource(0, 7));
        else if (op == "pad")
            QCOMPARE(eval->sources.source(0, 0), kNoSource);
        else if (op == "tile")
            QCOMPARE(eval->sources.source(0, 0), packSource(0, 0));
    }
}

// unique of distinct values plans y as x itself (a run of x, no row numbers): the evaluation
// shares x's buffer for y and still takes its provenance from the plan, y's element k read from
// x's element k, with no sources or order stored.
void TestAffinePlanMap::uniqueOfDistinctValuesSharesItsInput()
{
    EngineClient client;
    QSignalSpy evaluated(&client, &EngineClient::evaluated);
    Workspace ws = exampleWorkspace(*findOp("unique_with_counts"));
    std::vector<std::int64_t> distinct(5000);
    std::iota(distinct.begin(), distinct.end(), -2500);
    std::shuffle(distinct.begin(), distinct.end(), std::mt19937_64(3));
    ws.inputs.front() = {dataSource(tensorOf(DType::Int32, {5000}, distinct))};
    client.evaluate(ws);
    QVERIFY(evaluated.wait(10000));
    const auto eval = evaluated.front().front().value<std::shared_ptr<const Evaluation>>();
    QVERIFY(eval->ok);
    QCOMPARE(eval->outputs.front().raw(), eval->inputs.front().front().raw());
    QVERIFY(eval->sources.rowsPlan());
    QVERIFY(eval->sources.stored().empty());
    for (const std::int64_t k : {0, 1, 2499, 4999})
        QCOMPARE(eval->sources.source(0, k), packSource(0, k));
    QCOMPARE(eval->sources.targets(0, 4999).front(), std::vector<std::int64_t>{4999});
}

// Read positions worked out from a plan are 64 bits: x[::-1, ::-1] of a 65536 x 65537 tensor
// (2^32 + 2^16 elements, such as a view of a file bigger than memory) is read at the right
// positions by at(), read() and blockMinima (a heat map's selection), and summarised. With 32-bit
// positions the map was refused ("the workbench colours at most 2^31 - 1 read positions").
void TestAffinePlanMap::positionsPastThirtyTwoBits()
{
    constexpr std::int64_t rows = 65536, cols = 65537, size = rows * cols;
    AffinePiece piece;
    piece.slot = 0;
    piece.extents = {rows, cols};
    piece.inOffset = size - 1;
    piece.inStrides = {-cols, -1};
    piece.outStrides = {cols, 1};
    OutputPlan out;
    out.dtype = DType::Int8;
    out.shape = {rows, cols};
    out.pieces.push_back(piece);
    OpPlan plan;
    plan.outputs.push_back(out);
    std::shared_ptr<const AffinePlanMap> map;
    try {
        map = AffinePlanMap::make(plan, {Shape{rows, cols}});
    } catch (const OpError& e) {
        QFAIL(e.what());
    }
    QVERIFY(map);
    const ReadOrder input = map->inputOrder(0);
    const ReadOrder output = map->outputOrder(0);
    QCOMPARE(input->at(0), size - 1);
    QCOMPARE(output->at(size - 1), size - 1);
    std::vector<ReadPosition> got(3);
    input->read(1, 1, 3, got.data());
    QCOMPARE(got, (std::vector<ReadPosition>{size - 2, size - 3, size - 4}));
    // The input's first row in blocks of 1000: a block's first read is its last element's.
    std::vector<std::int64_t> edges;
    for (std::int64_t c = 0; c < cols; c += 1000)
        edges.push_back(c);
    edges.push_back(cols);
    const std::size_t blocks = edges.size() - 1;
    std::vector<ReadRank> least(blocks, ReadRank(-1));
    input->blockMinima(0, 1, edges.data(), blocks, least.data());
    for (std::size_t i = 0; i < blocks; ++i)
        QCOMPARE(std::uint64_t(least[i]), std::uint64_t(size - edges[i + 1]));
    QCOMPARE(map->inputSummary(0).first, size - 1);
    QCOMPARE(map->inputSummary(0).last, size - 1);
    QCOMPARE(map->outputSummary(0).last, size - 1);
    QCOMPARE(map->lastRead(), size - 1);
}

QTEST_GUILESS_MAIN(TestAffinePlanMap)
#include "tst_affineplanmap.moc"
