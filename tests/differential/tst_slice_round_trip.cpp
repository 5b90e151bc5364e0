// SPDX-License-Identifier: GPL-3.0-or-later
// to_expr must say the same thing as the spec it reads. Two round trips, each checked on several
// random input shapes: a Python subscript -> encode -> to_expr -> the new subscript; and a raw
// strided_slice spec with random masks -> to_expr -> getitem. Both sides must give the same values
// and shape, or fail with the same message; to_expr of its own output must give itself back.
// 1,000 specs per row; SLICESCOPE_SWEEP_EVERY=N (the sanitizer build sets it) takes the first
// 1000/N of the same seeded sequence, with the rows' minimum counts scaled alike.
#include "../engine/op_runner.h"
#include "core/slice_expr.h"
#include "subscript_gen.h"

#include <QTest>

#include <functional>
#include <limits>

using namespace ss;
using namespace ss::testing;

namespace {

constexpr int kShapesPerSpec = 4;

/// 1,000, or the first 1000/N under SLICESCOPE_SWEEP_EVERY=N.
int specsPerRow()
{
    bool ok = false;
    const int every = qEnvironmentVariableIntValue("SLICESCOPE_SWEEP_EVERY", &ok);
    return ok && every > 1 ? 1000 / every : 1000;
}

struct Outcome
{
    bool ok = false;
    Shape shape;
    std::vector<std::int64_t> values;
    std::string error;
};

Outcome run(const Shape& shape, std::string_view op, const Attrs& attrs)
{
    Outcome o;
    try {
        const OpRun r = runOp(op, {{iota(shape)}}, attrs);
        o.ok = true;
        o.shape = r.outputs[0].shape();
        o.values = values(r.outputs[0]);
    } catch (const OpError& e) {
        o.error = std::string(errorCodeName(e.code())) + ": " + e.what();
    }
    return o;
}

bool operator==(const Outcome& a, const Outcome& b)
{
    return a.ok == b.ok && a.shape == b.shape && a.values == b.values && a.error == b.error;
}

std::string describe(const Outcome& o)
{
    return o.ok ? "shape " + shapeString(o.shape) + " " + listString(o.values) : o.error;
}

std::string specText(const SparseSpec& s)
{
    return "begin " + listString(s.begin) + " end " + listString(s.end) + " strides " +
           listString(s.strides) + " masks b" + std::to_string(s.beginMask) + " e" +
           std::to_string(s.endMask) + " ell" + std::to_string(s.ellipsisMask) + " new" +
           std::to_string(s.newAxisMask) + " shr" + std::to_string(s.shrinkAxisMask);
}

Attrs exprAttrs(const std::string& text)
{
    return {{"expr", Attr(text)}};
}

// The raw specs each row leans on. Every row also keeps the random masks of `Plain`.
enum class Quirk {
    Plain,
    NewAxisAndShrink,          // new axis wins
    BeginMaskUnderShrink,      // the mask is ignored
    StrideAboveOneUnderShrink, // accepted, no effect
    BitsPastSpec,              // never read (the ellipsis power-of-two test aside)
    ExtremeValues,             // begin/end/strides near +-2^63
    NoSubscript,               // a stride <= 0 under shrink: TensorFlow always refuses it
};

std::int32_t bitAt(int i)
{
    return std::int32_t(std::uint32_t(1) << i);
}

SparseSpec randomSpec(SubscriptGenerator& g, Quirk quirk)
{
    SparseSpec s;
    const bool needsEntry =
        quirk != Quirk::Plain && quirk != Quirk::BitsPastSpec && quirk != Quirk::ExtremeValues;
    const int m = int(g.between(needsEntry ? 1 : 0, 7));
    for (int i = 0; i < m; ++i) {
        const bool extreme = quirk == Quirk::ExtremeValues;
        s.begin.push_back(extreme ? g.extreme() : g.bound());
        s.end.push_back(extreme ? g.extreme() : g.bound());
        s.strides.push_back(extreme && g.chance(0.7) ? g.extreme() : g.stride());
        if (s.strides.back() == 0 && quirk != Quirk::Plain) s.strides.back() = 1;
        if (g.chance(0.25)) s.beginMask |= bitAt(i);
        if (g.chance(0.25)) s.endMask |= bitAt(i);
        if (g.chance(0.12)) s.newAxisMask |= bitAt(i);
        if (g.chance(0.25)) {
            s.shrinkAxisMask |= bitAt(i);
            // Mostly valid indices, so that most specs reach the shapes instead of being refused.
            if (s.strides.back() < 0 &&
                s.strides.back() > std::numeric_limits<std::int64_t>::min() && g.chance(0.85))
                s.strides.back() = -s.strides.back();
        }
    }
    if (m > 0 && g.chance(0.4))
        s.ellipsisMask = bitAt(int(g.between(0, m - 1)));
    else if (g.chance(0.04))
        s.ellipsisMask = bitAt(int(g.between(0, 31))) | bitAt(int(g.between(0, 31)));

    const int i = m > 0 ? int(g.between(0, m - 1)) : 0;
    auto makeIndex = [&] {
        s.shrinkAxisMask |= bitAt(i);
        s.newAxisMask &= ~bitAt(i);
        s.ellipsisMask &= ~bitAt(i);
    };
    switch (quirk) {
    case Quirk::Plain:
    case Quirk::ExtremeValues: break;
    case Quirk::NewAxisAndShrink:
        s.newAxisMask |= bitAt(i);
        s.shrinkAxisMask |= bitAt(i);
        s.ellipsisMask &= ~bitAt(i);
        break;
    case Quirk::BeginMaskUnderShrink:
        makeIndex();
        s.beginMask |= bitAt(i);
        s.begin[std::size_t(i)] = g.between(-4, 4);
        s.strides[std::size_t(i)] = 1;
        break;
    case Quirk::StrideAboveOneUnderShrink:
        makeIndex();
        s.begin[std::size_t(i)] = g.between(-4, 4);
        s.strides[std::size_t(i)] =
            g.chance(0.8) ? g.between(2, 5) : std::numeric_limits<std::int64_t>::max();
        break;
    case Quirk::BitsPastSpec:
        for (std::int32_t* mask : {&s.beginMask, &s.endMask, &s.newAxisMask, &s.shrinkAxisMask})
            for (int b = m; b < 32; ++b)
                if (g.chance(0.3)) *mask |= bitAt(b);
        if (s.ellipsisMask == 0) s.ellipsisMask = bitAt(int(g.between(m, 31)));
        break;
    case Quirk::NoSubscript:
        makeIndex();
        s.strides[std::size_t(i)] = g.chance(0.2)   ? 0
                                    : g.chance(0.8) ? -g.between(1, 3)
                                                    : std::numeric_limits<std::int64_t>::min();
        break;
    }
    return s;
}

struct Tally
{
    int specs = 0;
    int values = 0;
    int errors = 0;
    int refused = 0; // to_expr (or encoding its answer) refused: the spec fails everywhere
    QStringList failures;

    void fail(const std::string& what)
    {
        if (failures.size() < 10)
            failures << QString::fromStdString(what);
        else
            failures.last() = QStringLiteral("...");
    }
    void count(const Outcome& o) { ++(o.ok ? values : errors); }
    QString summary() const
    {
        return QStringLiteral("%1 specs: %2 shape checks agree on values, %3 on errors; %4 specs "
                              "refused by to_expr and failing on every shape")
            .arg(specs)
            .arg(values)
            .arg(errors)
            .arg(refused);
    }
};

// `original` on each shape must equal what the subscript `expr` gives; when to_expr or encoding
// refuses (`expr` empty), the original must fail on every shape.
void compareOnShapes(SubscriptGenerator& g, const std::string& label,
                     const std::function<Outcome(const Shape&)>& original, const std::string& expr,
                     Tally& tally)
{
    for (int k = 0; k < kShapesPerSpec; ++k) {
        const Shape shape = g.shape(6, 512);
        const Outcome a = original(shape);
        if (expr.empty()) {
            if (a.ok)
                tally.fail(label + " on " + shapeString(shape) +
                           ": to_expr refused it, yet it gives " + describe(a));
            continue;
        }
        const Outcome b = run(shape, "getitem", exprAttrs(expr));
        if (!(a == b))
            tally.fail(label + " -> " + expr + " on " + shapeString(shape) + ": " + describe(a) +
                       " vs " + describe(b));
        else
            tally.count(a);
    }
    if (expr.empty()) ++tally.refused;
}

// to_expr's answer is already in shortest form, so reading it back must reproduce it.
void checkFixedPoint(const std::string& label, const std::string& expr, Tally& tally)
{
    const std::string again = toExpr(encodeExpression(expr).sparse);
    if (again != expr) tally.fail(label + ": to_expr gives " + expr + ", and then " + again);
}

} // namespace

class TestSliceRoundTrip : public QObject
{
    Q_OBJECT

private slots:
    void subscripts_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 4; ++seed)
            QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed;
    }

    // subscript -> encode -> to_expr -> encode: the same op.
    void subscripts()
    {
        QFETCH(int, seed);
        SubscriptGenerator g(std::uint64_t(seed) * 7919);
        Tally tally;
        const int specs = specsPerRow();
        for (int n = 0; n < specs; ++n) {
            const std::string text = g.subscript(int(g.between(0, 6))).engineText;
            Encoding enc;
            try {
                enc = encodeExpression(text);
            } catch (const OpError&) {
                continue; // nothing to round-trip: the subscript itself is refused
            }
            ++tally.specs;
            std::string expr;
            try {
                expr = toExpr(enc.sparse);
                encodeExpression(expr);
            } catch (const OpError&) {
                expr.clear();
            }
            compareOnShapes(
                g, text, [&](const Shape& s) { return run(s, "getitem", exprAttrs(text)); }, expr,
                tally);
            if (!expr.empty()) checkFixedPoint(text, expr, tally);
        }
        qInfo().noquote() << tally.summary();
        QVERIFY2(tally.failures.isEmpty(), qPrintable(tally.failures.join('\n')));
        QVERIFY(tally.values > specs);
        QVERIFY(tally.errors > specs / 10);
    }

    void rawSpecs_data()
    {
        QTest::addColumn<int>("quirk");
        QTest::newRow("plain random masks") << int(Quirk::Plain);
        QTest::newRow("new_axis and shrink on one bit") << int(Quirk::NewAxisAndShrink);
        QTest::newRow("begin_mask under shrink") << int(Quirk::BeginMaskUnderShrink);
        QTest::newRow("stride above 1 under shrink") << int(Quirk::StrideAboveOneUnderShrink);
        QTest::newRow("mask bits past the spec length") << int(Quirk::BitsPastSpec);
        QTest::newRow("values near +-2^63") << int(Quirk::ExtremeValues);
        QTest::newRow("stride <= 0 under shrink has no subscript") << int(Quirk::NoSubscript);
    }

    // raw spec -> to_expr -> getitem: the same op on every shape tried.
    void rawSpecs()
    {
        QFETCH(int, quirk);
        SubscriptGenerator g(std::uint64_t(quirk) * 104729 + 1);
        Tally tally;
        const int specs = specsPerRow();
        for (int n = 0; n < specs; ++n) {
            const SparseSpec spec = randomSpec(g, Quirk(quirk));
            ++tally.specs;
            std::string expr;
            try {
                expr = toExpr(spec);
                encodeExpression(expr);
            } catch (const OpError&) {
                expr.clear();
            }
            const Attrs attrs = attrsFromSparse(spec);
            compareOnShapes(
                g, specText(spec), [&](const Shape& s) { return run(s, "strided_slice", attrs); },
                expr, tally);
            if (!expr.empty()) checkFixedPoint(specText(spec), expr, tally);
        }
        qInfo().noquote() << tally.summary();
        QVERIFY2(tally.failures.isEmpty(), qPrintable(tally.failures.join('\n')));
        if (Quirk(quirk) == Quirk::NoSubscript) {
            QCOMPARE(tally.refused, tally.specs);
        } else {
            // Each quirk must really be exercised by specs that succeed.
            QVERIFY(tally.values > specs / 5);
        }
    }
};

QTEST_APPLESS_MAIN(TestSliceRoundTrip)
#include "tst_slice_round_trip.moc"
