// SPDX-License-Identifier: GPL-3.0-or-later
// The subscript parser, the encoder (what tf.Tensor.__getitem__ passes to strided_slice) and
// to_expr (raw arguments back to the shortest subscript): every grammar form, every parse error
// with its 0-based character position, TensorFlow's texts for what it refuses, and tables of
// encoder and to_expr outputs.
#include "core/slice_expr.h"
#include "op_runner.h"

#include <QTest>

#include <cmath>
#include <ctime>
#include <limits>

using namespace ss;
using namespace ss::testing;

using Ints = QList<qint64>;

// Milliseconds of processor time this process used since `started` (every thread): a guard
// against work that grows too fast, which other processes on a loaded machine cannot fail.
static long cpuMs(std::clock_t started)
{
    return long((std::clock() - started) * 1000 / CLOCKS_PER_SEC);
}

namespace {

constexpr qint64 kMin = std::numeric_limits<qint64>::min();
constexpr qint64 kMax = std::numeric_limits<qint64>::max();

const QString kTypeError =
    QStringLiteral("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                   "tf.int32/tf.int64 tensors are valid indices, got ");
const QString kTooWide =
    QStringLiteral(" does not fit in a 64-bit integer, the widest index TensorFlow takes");

QString formName(Subscript::Form form)
{
    switch (form) {
    case Subscript::Form::Single: return QStringLiteral("single");
    case Subscript::Form::Tuple: return QStringLiteral("tuple");
    case Subscript::Form::List: return QStringLiteral("list");
    }
    return {};
}

QString kindName(SubscriptItem::Kind kind)
{
    switch (kind) {
    case SubscriptItem::Kind::Integer: return QStringLiteral("index");
    case SubscriptItem::Kind::Slice: return QStringLiteral("slice");
    case SubscriptItem::Kind::NewAxis: return QStringLiteral("None");
    case SubscriptItem::Kind::Ellipsis: return QStringLiteral("...");
    case SubscriptItem::Kind::Bool: return QStringLiteral("bool");
    case SubscriptItem::Kind::IndexArray: return QStringLiteral("array");
    case SubscriptItem::Kind::Other: return QStringLiteral("other");
    }
    return {};
}

// "index '1'@3-4 | slice '2:4'@7-10": kind, text as written, character range.
QString describeItems(const Subscript& s)
{
    QStringList parts;
    for (const SubscriptItem& it : s.items)
        parts << QStringLiteral("%1 '%2'@%3-%4")
                     .arg(kindName(it.kind), QString::fromStdString(it.text))
                     .arg(it.textBegin)
                     .arg(it.textEnd);
    return parts.join(QStringLiteral(" | "));
}

std::vector<std::int64_t> vec(const Ints& v)
{
    return {v.begin(), v.end()};
}

SparseSpec spec(const Ints& b, const Ints& e, const Ints& s, const Ints& masks = {0, 0, 0, 0, 0})
{
    SparseSpec sp;
    sp.begin = vec(b);
    sp.end = vec(e);
    sp.strides = vec(s);
    sp.beginMask = std::int32_t(masks[0]);
    sp.endMask = std::int32_t(masks[1]);
    sp.ellipsisMask = std::int32_t(masks[2]);
    sp.newAxisMask = std::int32_t(masks[3]);
    sp.shrinkAxisMask = std::int32_t(masks[4]);
    return sp;
}

QString repeated(const QString& item, int n)
{
    QStringList items;
    for (int k = 0; k < n; ++k)
        items << item;
    return items.join(QStringLiteral(", "));
}

} // namespace

class TestSliceExpr : public QObject
{
    Q_OBJECT

private slots:
    // pad's constant_values NaN (PADV2 in a TFLite file) plans and fills with NaN.
    void padWithNaN()
    {
        const OpRun run =
            runOp("pad", {{iota({2}, 0, DType::Float32)}},
                  // Attr(...) around the row: clang reads List{List{1, 0}} as a copy of the row.
                  {{"paddings", Attr(Attr::List{Attr(Attr::List{1, 0})})},
                   {"constant_values", Attr(std::numeric_limits<double>::quiet_NaN())}});
        QCOMPARE(run.outputs[0].size(), std::int64_t(3));
        QVERIFY(std::isnan(run.outputs[0].doubleAt(0)));
    }

    void parse_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("form");
        QTest::addColumn<QString>("items");
        QTest::newRow("x[1]") << "x[1]"
                              << "single"
                              << "index '1'@2-3";
        QTest::newRow("bare index") << "1"
                                    << "single"
                                    << "index '1'@0-1";
        QTest::newRow("spaces around items") << "x[ 1 , 2:4 ]"
                                             << "tuple"
                                             << "index '1'@3-4 | slice '2:4'@7-10";
        QTest::newRow("bare tuple") << "1, 2:4"
                                    << "tuple"
                                    << "index '1'@0-1 | slice '2:4'@3-6";
        QTest::newRow("space before the bracket") << "x [1]"
                                                  << "single"
                                                  << "index '1'@3-4";
        QTest::newRow("spaces everywhere") << "  x [ 1 : 2 : 3 ]  "
                                           << "single"
                                           << "slice '1 : 2 : 3'@6-15";
        QTest::newRow("tabs and newlines") << "\tx[\n1\n]"
                                           << "single"
                                           << "index '1'@4-5";
        QTest::newRow("other name") << "tensor[1]"
                                    << "single"
                                    << "index '1'@7-8";
        QTest::newRow("dotted name") << "foo.bar[1]"
                                     << "single"
                                     << "index '1'@8-9";
        QTest::newRow("None") << "x[None]"
                              << "single"
                              << "None 'None'@2-6";
        QTest::newRow("newaxis spellings")
            << "x[tf.newaxis, np.newaxis, newaxis, numpy.newaxis]"
            << "tuple"
            << "None 'tf.newaxis'@2-12 | None 'np.newaxis'@14-24 | None 'newaxis'@26-33 | "
               "None 'numpy.newaxis'@35-48";
        QTest::newRow("...") << "x[...]"
                             << "single"
                             << "... '...'@2-5";
        QTest::newRow("Ellipsis") << "x[Ellipsis]"
                                  << "single"
                                  << "... 'Ellipsis'@2-10";
        QTest::newRow("two ellipses parse") << "x[...,...]"
                                            << "tuple"
                                            << "... '...'@2-5 | ... '...'@6-9";
        QTest::newRow("signed integers") << "x[-3, +3, - 3, --3]"
                                         << "tuple"
                                         << "index '-3'@2-4 | index '+3'@6-8 | index '- 3'@10-13 | "
                                            "index '--3'@15-18";
        QTest::newRow("omitted parts") << "x[:, ::, 1:, :2, ::2, 1:2:]"
                                       << "tuple"
                                       << "slice ':'@2-3 | slice '::'@5-7 | slice '1:'@9-11 | "
                                          "slice ':2'@13-15 | slice '::2'@17-20 | "
                                          "slice '1:2:'@22-26";
        QTest::newRow("x[()]") << "x[()]"
                               << "tuple"
                               << "";
        QTest::newRow("trailing comma") << "x[1,]"
                                        << "tuple"
                                        << "index '1'@2-3";
        QTest::newRow("one-element tuple") << "x[(1,)]"
                                           << "tuple"
                                           << "index '1'@3-4";
        QTest::newRow("parentheses alone") << "x[(1)]"
                                           << "single"
                                           << "index '1'@3-4";
        QTest::newRow("parenthesised tuple") << "x[(1, 2)]"
                                             << "tuple"
                                             << "index '1'@3-4 | index '2'@6-7";
        QTest::newRow("list") << "x[[1, 2]]"
                              << "list"
                              << "index '1'@3-4 | index '2'@6-7";
        QTest::newRow("empty list") << "x[[]]"
                                    << "list"
                                    << "";
        QTest::newRow("bool") << "x[True]"
                              << "single"
                              << "bool 'True'@2-6";
        QTest::newRow("positions count characters") << "x[ 'é' , 1 ]"
                                                    << "tuple"
                                                    << "other ''é''@3-6 | index '1'@9-10";
    }

    void parse()
    {
        QFETCH(QString, expression);
        QFETCH(QString, form);
        QFETCH(QString, items);
        Subscript s;
        try {
            s = parseSubscript(expression.toStdString());
        } catch (const OpError& e) {
            QFAIL(e.what());
        }
        QCOMPARE(formName(s.form), form);
        QCOMPARE(describeItems(s), items);
    }

    void encode_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<Ints>("begin");
        QTest::addColumn<Ints>("end");
        QTest::addColumn<Ints>("strides");
        QTest::addColumn<Ints>("masks"); // begin, end, ellipsis, new_axis, shrink
        QTest::addColumn<bool>("listNote");
        QTest::newRow("x[1]") << "x[1]" << Ints{1} << Ints{2} << Ints{1} << Ints{0, 0, 0, 0, 1}
                              << false;
        QTest::newRow("x[-1]") << "x[-1]" << Ints{-1} << Ints{0} << Ints{1} << Ints{0, 0, 0, 0, 1}
                               << false;
        QTest::newRow("x[:]") << "x[:]" << Ints{0} << Ints{0} << Ints{1} << Ints{1, 1, 0, 0, 0}
                              << false;
        QTest::newRow("x[::]") << "x[::]" << Ints{0} << Ints{0} << Ints{1} << Ints{1, 1, 0, 0, 0}
                               << false;
        QTest::newRow("x[1:]") << "x[1:]" << Ints{1} << Ints{0} << Ints{1} << Ints{0, 1, 0, 0, 0}
                               << false;
        QTest::newRow("x[:2]") << "x[:2]" << Ints{0} << Ints{2} << Ints{1} << Ints{1, 0, 0, 0, 0}
                               << false;
        QTest::newRow("x[::2]") << "x[::2]" << Ints{0} << Ints{0} << Ints{2} << Ints{1, 1, 0, 0, 0}
                                << false;
        QTest::newRow("x[::-1]") << "x[::-1]" << Ints{0} << Ints{0} << Ints{-1}
                                 << Ints{1, 1, 0, 0, 0} << false;
        QTest::newRow("x[1:2:]") << "x[1:2:]" << Ints{1} << Ints{2} << Ints{1}
                                 << Ints{0, 0, 0, 0, 0} << false;
        QTest::newRow("x[1::2]") << "x[1::2]" << Ints{1} << Ints{0} << Ints{2}
                                 << Ints{0, 1, 0, 0, 0} << false;
        QTest::newRow("x[:2:3]") << "x[:2:3]" << Ints{0} << Ints{2} << Ints{3}
                                 << Ints{1, 0, 0, 0, 0} << false;
        QTest::newRow("None parts")
            << "x[None:None:None]" << Ints{0} << Ints{0} << Ints{1} << Ints{1, 1, 0, 0, 0} << false;
        QTest::newRow("x[None:3]")
            << "x[None:3]" << Ints{0} << Ints{3} << Ints{1} << Ints{1, 0, 0, 0, 0} << false;
        QTest::newRow("x[None]") << "x[None]" << Ints{0} << Ints{0} << Ints{1}
                                 << Ints{0, 0, 0, 1, 0} << false;
        QTest::newRow("x[Ellipsis, 1]") << "x[Ellipsis, 1]" << Ints{0, 1} << Ints{0, 2}
                                        << Ints{1, 1} << Ints{0, 0, 1, 0, 2} << false;
        QTest::newRow("x[..., ...] encodes both bits")
            << "x[..., ...]" << Ints{0, 0} << Ints{0, 0} << Ints{1, 1} << Ints{0, 0, 3, 0, 0}
            << false;
        QTest::newRow("x[()]") << "x[()]" << Ints{} << Ints{} << Ints{} << Ints{0, 0, 0, 0, 0}
                               << false;
        QTest::newRow("x[1,]") << "x[1,]" << Ints{1} << Ints{2} << Ints{1} << Ints{0, 0, 0, 0, 1}
                               << false;
        QTest::newRow("list read as a tuple")
            << "x[[1, 2]]" << Ints{1, 2} << Ints{2, 3} << Ints{1, 1} << Ints{0, 0, 0, 0, 3} << true;
        QTest::newRow("parenthesised tuple") << "x[(1, 2)]" << Ints{1, 2} << Ints{2, 3}
                                             << Ints{1, 1} << Ints{0, 0, 0, 0, 3} << false;
        // Parentheses without a comma make no tuple in Python: (1) is 1.
        QTest::newRow("parenthesised index in a tuple")
            << "x[(1), 2]" << Ints{1, 2} << Ints{2, 3} << Ints{1, 1} << Ints{0, 0, 0, 0, 3}
            << false;
        QTest::newRow("double parentheses")
            << "x[((1))]" << Ints{1} << Ints{2} << Ints{1} << Ints{0, 0, 0, 0, 1} << false;
        QTest::newRow("S13 seed walk-through")
            << "x[1, 2:4, None, ..., :-3:-1, :]" << Ints{1, 2, 0, 0, 0, 0}
            << Ints{2, 4, 0, 0, -3, 0} << Ints{1, 1, 1, 1, -1, 1} << Ints{48, 32, 8, 4, 1} << false;
        QTest::newRow("index -2^63") << "x[-9223372036854775808]" << Ints{kMin} << Ints{kMin + 1}
                                     << Ints{1} << Ints{0, 0, 0, 0, 1} << false;
        QTest::newRow("slice start 2^63-1") << "x[9223372036854775807:]" << Ints{kMax} << Ints{0}
                                            << Ints{1} << Ints{0, 1, 0, 0, 0} << false;
        QTest::newRow("step -2^63") << "x[::-9223372036854775808]" << Ints{0} << Ints{0}
                                    << Ints{kMin} << Ints{1, 1, 0, 0, 0} << false;
        QTest::newRow("integer literal forms")
            << "x[0x1f, 0o7, 0b11, 1_000, 00]" << Ints{31, 7, 3, 1000, 0} << Ints{32, 8, 4, 1001, 1}
            << Ints{1, 1, 1, 1, 1} << Ints{0, 0, 0, 0, 31} << false;
    }

    void encode()
    {
        QFETCH(QString, expression);
        QFETCH(Ints, begin);
        QFETCH(Ints, end);
        QFETCH(Ints, strides);
        QFETCH(Ints, masks);
        QFETCH(bool, listNote);
        Encoding enc;
        try {
            enc = encodeExpression(expression.toStdString());
        } catch (const OpError& e) {
            QFAIL(e.what());
        }
        QCOMPARE(enc.sparse.begin, vec(begin));
        QCOMPARE(enc.sparse.end, vec(end));
        QCOMPARE(enc.sparse.strides, vec(strides));
        QCOMPARE((Ints{enc.sparse.beginMask, enc.sparse.endMask, enc.sparse.ellipsisMask,
                       enc.sparse.newAxisMask, enc.sparse.shrinkAxisMask}),
                 masks);
        QCOMPARE(enc.entries.size(), enc.sparse.begin.size());
        QCOMPARE(!enc.notes.empty(), listNote);
        if (listNote)
            QVERIFY(QString::fromStdString(enc.notes.front()).contains("advanced indexing"));
    }

    // Masks are 32 bits wide: 31 entries decode, 32 are refused by the kernel's first check (a
    // 32nd entry that sets a mask bit is refused earlier, by the masks' int32 range).
    void specLengthCap()
    {
        const Tensor input = iota({2});
        // 31 entries is the longest spec the masks hold: it decodes...
        const std::string longest = ("x[" + repeated("None", 30) + ", 1]").toStdString();
        StridedSliceDecode d;
        std::vector<Step> steps;
        decodeStridedSlice({2}, encodeExpression(longest).sparse, d, steps);
        QCOMPARE(d.finalShape, Shape(30, 1));
        // ...and a rank-30 result is a result (TensorFlow has no cap of 8 on tensors).
        QCOMPARE(runOp("getitem", {{input}}, {{"expr", Attr(longest)}}).outputs[0].shape(),
                 Shape(30, 1));
        SS_EXPECT_ERROR(runOp("getitem", {{input}},
                              {{"expr", Attr(("x[" + repeated("0:1", 32) + "]").toStdString())}}),
                        ErrorCode::InvalidArgument,
                        "Expected begin, end, and strides to be 1D equal size tensors, but got "
                        "shapes [32], [32], and [32] instead.");
        // The encoder builds Python's unbounded masks: bit 30 still fits an int32, bit 31 not.
        QCOMPARE(
            encodeExpression(("x[" + repeated("None", 31) + "]").toStdString()).sparse.newAxisMask,
            0x7fffffff);
        SS_EXPECT_ERROR(encodeExpression(("x[" + repeated("None", 32) + "]").toStdString()),
                        ErrorCode::InvalidArgument,
                        "Attr new_axis_mask has value 4294967295 out of range for an int32");
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<int>("position");
        QTest::addColumn<QString>("message");
        const QString empty =
            QStringLiteral("the expression is empty: write x[()] to index with nothing");
        const QString emptySubscript =
            QStringLiteral("empty subscript: write x[()] to index with nothing");
        const QString beforeEnd =
            QStringLiteral("expected an index, a slice, None or ... before the end");
        const QString after = QStringLiteral("unexpected text after the closing ']'");
        const QString badNumber = QStringLiteral("invalid character in number");
        const QString noExponent = QStringLiteral("expected digits in the exponent");
        QTest::newRow("empty") << "" << 0 << empty;
        QTest::newRow("only spaces") << "   " << 3 << empty;
        QTest::newRow("x[]") << "x[]" << 2 << emptySubscript;
        QTest::newRow("x[ ]") << "x[ ]" << 3 << emptySubscript;
        QTest::newRow("x[") << "x[" << 2 << beforeEnd;
        QTest::newRow("x[1,") << "x[1," << 4 << beforeEnd;
        QTest::newRow("x[1") << "x[1" << 3 << "expected ']' before the end";
        QTest::newRow("missing comma") << "x[1 2]" << 4 << "expected ',' or ']', found '2'";
        QTest::newRow("missing comma, bare") << "1 2" << 2 << "expected ',' or 'end', found '2'";
        QTest::newRow("x[None None]") << "x[None None]" << 7 << "expected ',' or ']', found 'N'";
        QTest::newRow("wrong closer") << "x[1)" << 3 << "expected ',' or ']', found ')'";
        QTest::newRow("tuple closed by ]") << "x[(1, 2]" << 7 << "expected ',' or ')', found ']'";
        QTest::newRow("list closed by )") << "x[[1, 2)]" << 7 << "expected ',' or ']', found ')'";
        QTest::newRow("three colons") << "x[1:2:3:4]" << 7 << "expected ',' or ']', found ':'";
        QTest::newRow("x[1]]") << "x[1]]" << 4 << after;
        QTest::newRow("x[1] y") << "x[1] y" << 5 << after;
        QTest::newRow("x[1](") << "x[1](" << 4 << after;
        QTest::newRow("unknown name")
            << "x[foo]" << 2
            << "unknown name 'foo': an index is an integer, a slice, None "
               "(or tf.newaxis) or ...";
        QTest::newRow("unknown dotted name") << "x[tf.foo]" << 2
                                             << "unknown name 'tf.foo': an index is an integer, a "
                                                "slice, None (or tf.newaxis) or ...";
        QTest::newRow("bare name") << "x" << 0
                                   << "unknown name 'x': an index is an integer, a slice, None (or "
                                      "tf.newaxis) or ...";
        QTest::newRow("comparison without a number")
            << "x[x > ]" << 6 << "expected a number to compare x with";
        QTest::newRow("comparison with a name")
            << "t[t <= u]" << 7 << "expected a number to compare t with";
        QTest::newRow("comparison of another name")
            << "x[y > 3]" << 2
            << "unknown name 'y': an index is an integer, a slice, None (or tf.newaxis) or ...";
        QTest::newRow("comparison beyond int64")
            << "x[x > 99999999999999999999]" << 2
            << "the number 99999999999999999999 does not fit in a 64-bit integer";
        QTest::newRow("sign alone") << "x[-]" << 3 << "expected a number after the sign";
        QTest::newRow("x[1a]") << "x[1a]" << 3 << badNumber;
        QTest::newRow("x[1_]") << "x[1_]" << 3 << badNumber;
        QTest::newRow("x[1__0]") << "x[1__0]" << 3 << badNumber;
        QTest::newRow("x[0b2]") << "x[0b2]" << 4 << badNumber;
        QTest::newRow("x[0xg]") << "x[0xg]" << 4 << badNumber;
        QTest::newRow("x[1e]") << "x[1e]" << 4 << noExponent;
        QTest::newRow("x[1e+]") << "x[1e+]" << 5 << noExponent;
        QTest::newRow("x[0x]") << "x[0x]" << 4 << "expected digits";
        QTest::newRow("leading zero")
            << "x[01]" << 2 << "leading zeros in decimal integer literals are not permitted";
        QTest::newRow("unterminated string") << "x['abc]" << 2 << "unterminated string";
        QTest::newRow("x[@]") << "x[@]" << 2 << "unexpected '@'";
        QTest::newRow("x[..]") << "x[..]" << 2 << "unexpected '.'";
        QTest::newRow("x[,]") << "x[,]" << 2 << "unexpected ','";
        QTest::newRow("two commas") << "x[1:2,,3]" << 6 << "unexpected ','";
        QTest::newRow("position in characters, not bytes")
            << "x['é' 1]" << 6 << "expected ',' or ']', found '1'";
        QTest::newRow("non-ASCII character") << "x[ä]" << 2 << "unexpected 'ä'";
    }

    void parseErrors()
    {
        QFETCH(QString, expression);
        QFETCH(int, position);
        QFETCH(QString, message);
        try {
            parseSubscript(expression.toStdString());
            QFAIL("no parse error");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::ParseError);
            QCOMPARE(e.position(), std::optional<int>(position));
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("%1 (at position %2)").arg(message).arg(position));
        }
    }

    void refusedIndices_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("message");
        // TensorFlow's TypeError quotes Python's repr() of the index.
        QTest::newRow("float") << "x[1.5]" << kTypeError + "1.5";
        QTest::newRow("float 1.") << "x[1.]" << kTypeError + "1.0";
        QTest::newRow("float .5") << "x[.5]" << kTypeError + "0.5";
        QTest::newRow("negative zero") << "x[-0.0]" << kTypeError + "-0.0";
        QTest::newRow("float 1e3") << "x[1e3]" << kTypeError + "1000.0";
        QTest::newRow("float 1e5") << "x[1e5]" << kTypeError + "100000.0";
        QTest::newRow("float -1e5") << "x[-1e5]" << kTypeError + "-100000.0";
        QTest::newRow("float 0.0001") << "x[0.0001]" << kTypeError + "0.0001";
        QTest::newRow("float 1e15") << "x[1e15]" << kTypeError + "1000000000000000.0";
        QTest::newRow("float 1e16") << "x[1e16]" << kTypeError + "1e+16";
        QTest::newRow("float 1.5e-7") << "x[1.5e-7]" << kTypeError + "1.5e-07";
        QTest::newRow("float slice stop") << "x[1:2.5]" << kTypeError + "2.5";
        QTest::newRow("float slice step") << "x[::0.5]" << kTypeError + "0.5";
        QTest::newRow("string") << "x['a']" << kTypeError + "'a'";
        QTest::newRow("double-quoted string") << "x[\"b\"]" << kTypeError + "'b'";
        QTest::newRow("string with a quote") << "x[\"it's\"]" << kTypeError + "\"it's\"";
        QTest::newRow("string with an escape") << "x['a\\n']" << kTypeError + "'a\\n'";
        QTest::newRow("list inside a tuple") << "x[1, [2, 3]]" << kTypeError + "[2, 3]";
        QTest::newRow("tuple inside a tuple") << "x[(1, 2), 3]" << kTypeError + "(1, 2)";
        QTest::newRow("empty tuple inside a tuple") << "x[(),]" << kTypeError + "()";
        QTest::newRow("x[True]") << "x[True]"
                                 << "mask cannot be scalar.";
        QTest::newRow("x[(False)]") << "x[(False)]"
                                    << "mask cannot be scalar.";
        QTest::newRow("bool inside a tuple") << "x[1, True]"
                                             << "a bool inside a subscript (True) is not a valid "
                                                "index: TensorFlow stacks it with the "
                                                "other begin/end/strides values and fails. Use "
                                                "x[mask] with a whole bool tensor for a "
                                                "boolean mask";
        QTest::newRow("index 2^63") << "x[9223372036854775808]"
                                    << "index 9223372036854775808" + kTooWide;
        QTest::newRow("index -2^63-1") << "x[-9223372036854775809]"
                                       << "index -9223372036854775809" + kTooWide;
        QTest::newRow("hex index 2^63") << "x[0x8000000000000000]"
                                        << "index 9223372036854775808" + kTooWide;
        // Several nine-digit limbs of the decimal conversion (checked against Python's int()).
        QTest::newRow("hex index 2^128-1")
            << "x[0xffffffffffffffffffffffffffffffff]"
            << "index 340282366920938463463374607431768211455" + kTooWide;
        QTest::newRow("octal index") << "x[0o777777777777777777777777777777]"
                                     << "index 1237940039285380274899124223" + kTooWide;
        QTest::newRow("binary index 2^70-1") << "x[0b" + QString(70, '1') + "]"
                                             << "index 1180591620717411303423" + kTooWide;
        QTest::newRow("huge slice stop") << "x[1:99999999999999999999]"
                                         << "index 99999999999999999999" + kTooWide;
        QTest::newRow("index 2^63-1") << "x[9223372036854775807]"
                                      << "index 9223372036854775807 leaves no room for its end "
                                         "(index + 1) in a 64-bit integer";
    }

    void refusedIndices()
    {
        QFETCH(QString, expression);
        QFETCH(QString, message);
        try {
            encodeExpression(expression.toStdString());
            QFAIL("no error");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QCOMPARE(QString::fromUtf8(e.what()), message);
        }
    }

    // The masks of a long subscript are printed in decimal; the conversion is quadratic, so past
    // Python's 4,300-digit limit only the length is printed, and 100,000 entries encode at once.
    void hugeMasksEncodeQuickly()
    {
        SS_EXPECT_ERROR(encodeExpression(("x[" + repeated("None", 70) + "]").toStdString()),
                        ErrorCode::InvalidArgument,
                        "Attr new_axis_mask has value 1180591620717411303423 out of range for an "
                        "int32");
        const std::clock_t started = std::clock();
        SS_EXPECT_ERROR(encodeExpression(("x[" + repeated("None", 100000) + "]").toStdString()),
                        ErrorCode::InvalidArgument,
                        "Attr new_axis_mask has value a number of about 30103 decimal digits out "
                        "of range for an int32");
        QVERIFY2(cpuMs(started) < 2000, qPrintable(QString::number(cpuMs(started)) + " ms"));
    }

    void toExpr_data()
    {
        QTest::addColumn<Ints>("begin");
        QTest::addColumn<Ints>("end");
        QTest::addColumn<Ints>("strides");
        QTest::addColumn<Ints>("masks"); // begin, end, ellipsis, new_axis, shrink
        QTest::addColumn<QString>("expression");
        QTest::newRow("empty spec") << Ints{} << Ints{} << Ints{} << Ints{0, 0, 0, 0, 0} << "x[()]";
        QTest::newRow("S1") << Ints{1, 0} << Ints{0, 0} << Ints{1, -2} << Ints{2, 3, 0, 0, 0}
                            << "x[1:, ::-2]";
        QTest::newRow("S2") << Ints{-1, 0, 1} << Ints{0, 0, 3} << Ints{1, 1, 1}
                            << Ints{0, 0, 0, 2, 1} << "x[-1, None, 1:3]";
        QTest::newRow("S13") << Ints{1, 2, 0, 0, 0, 0} << Ints{2, 4, 0, 0, -3, 0}
                             << Ints{1, 1, 1, 1, -1, 1} << Ints{48, 32, 8, 4, 1}
                             << "x[1, 2:4, None, ..., :-3:-1, :]";
        QTest::newRow("S3 new axis wins over shrink")
            << Ints{1} << Ints{2} << Ints{1} << Ints{0, 0, 0, 1, 1} << "x[None]";
        QTest::newRow("S4 begin mask ignored under shrink")
            << Ints{2} << Ints{0} << Ints{1} << Ints{1, 0, 0, 0, 1} << "x[2]";
        QTest::newRow("S5 stride 3 under shrink")
            << Ints{1} << Ints{0} << Ints{3} << Ints{0, 0, 0, 0, 1} << "x[1]";
        QTest::newRow("S8 end mask bit past the spec")
            << Ints{0} << Ints{2} << Ints{1} << Ints{0, 2, 0, 0, 0} << "x[:2]";
        QTest::newRow("ellipsis bit past the spec")
            << Ints{1} << Ints{2} << Ints{1} << Ints{0, 0, 4, 0, 1} << "x[1]";
        QTest::newRow("lone ellipsis")
            << Ints{0} << Ints{0} << Ints{1} << Ints{0, 0, 1, 0, 0} << "x[()]";
        QTest::newRow("trailing ellipsis dropped")
            << Ints{1, 0} << Ints{2, 0} << Ints{1, 1} << Ints{0, 0, 2, 0, 1} << "x[1]";
        QTest::newRow("leading ellipsis kept")
            << Ints{0, 1} << Ints{0, 2} << Ints{1, 1} << Ints{0, 0, 1, 0, 2} << "x[..., 1]";
        QTest::newRow("ellipsis wins over new axis")
            << Ints{0, 0} << Ints{0, 0} << Ints{1, 1} << Ints{2, 2, 1, 1, 0} << "x[..., :]";
        QTest::newRow("begin 0 is omitted")
            << Ints{0} << Ints{3} << Ints{1} << Ints{0, 0, 0, 0, 0} << "x[:3]";
        QTest::newRow("begin -1 omitted for a negative stride")
            << Ints{-1} << Ints{0} << Ints{-1} << Ints{0, 1, 0, 0, 0} << "x[::-1]";
        QTest::newRow("begin -1 kept for a positive stride")
            << Ints{-1} << Ints{0} << Ints{1} << Ints{0, 1, 0, 0, 0} << "x[-1:]";
        QTest::newRow("begin 0 kept for a negative stride")
            << Ints{0} << Ints{0} << Ints{-1} << Ints{0, 1, 0, 0, 0} << "x[0::-1]";
        QTest::newRow("-2^63 and 2^63-1 are the whole range")
            << Ints{kMin} << Ints{kMax} << Ints{1} << Ints{0, 0, 0, 0, 0} << "x[:]";
        QTest::newRow("2^63-1 and -2^63 are the whole range reversed")
            << Ints{kMax} << Ints{kMin} << Ints{-1} << Ints{0, 0, 0, 0, 0} << "x[::-1]";
        QTest::newRow("masked values are not shown")
            << Ints{7} << Ints{9} << Ints{2} << Ints{1, 1, 0, 0, 0} << "x[::2]";
        QTest::newRow("explicit bounds kept")
            << Ints{2} << Ints{0} << Ints{-1} << Ints{0, 0, 0, 0, 0} << "x[2:0:-1]";
        QTest::newRow("stride 0 kept for the kernel to refuse")
            << Ints{0} << Ints{1} << Ints{0} << Ints{0, 0, 0, 0, 0} << "x[0:1:0]";
    }

    void toExpr()
    {
        QFETCH(Ints, begin);
        QFETCH(Ints, end);
        QFETCH(Ints, strides);
        QFETCH(Ints, masks);
        QFETCH(QString, expression);
        std::string text;
        try {
            text = ss::toExpr(spec(begin, end, strides, masks));
        } catch (const OpError& e) {
            QFAIL(e.what());
        }
        QCOMPARE(QString::fromStdString(text), expression);
    }

    void toExprRefuses_data()
    {
        QTest::addColumn<Ints>("begin");
        QTest::addColumn<Ints>("end");
        QTest::addColumn<Ints>("strides");
        QTest::addColumn<Ints>("masks");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative stride under shrink")
            << Ints{0, 1} << Ints{0, 2} << Ints{1, -1} << Ints{0, 0, 0, 0, 2}
            << "entry 1 is an index with stride -1, which TensorFlow always rejects (\"only stride "
               "1 "
               "allowed on non-range indexing.\"); no Python subscript produces it";
        QTest::newRow("stride 0 under shrink")
            << Ints{1} << Ints{2} << Ints{0} << Ints{0, 0, 0, 0, 1}
            << "strides[0] must be non-zero";
        QTest::newRow("two ellipsis bits, one past the spec")
            << Ints{0} << Ints{0} << Ints{1} << Ints{0, 0, 5, 0, 0}
            << "Multiple ellipses in slice spec not allowed";
        QTest::newRow("unequal lengths") << Ints{1, 0} << Ints{2} << Ints{1} << Ints{0, 0, 0, 0, 0}
                                         << "Expected begin, end, and strides to be 1D equal size "
                                            "tensors, but got shapes [2], [1], and [1] instead.";
    }

    void toExprRefuses()
    {
        QFETCH(Ints, begin);
        QFETCH(Ints, end);
        QFETCH(Ints, strides);
        QFETCH(Ints, masks);
        QFETCH(QString, message);
        SS_EXPECT_ERROR(ss::toExpr(spec(begin, end, strides, masks)), ErrorCode::InvalidArgument,
                        message.toStdString());
    }

    void toExprSpecLengthCap()
    {
        const Ints ones(32, 1);
        SS_EXPECT_ERROR(ss::toExpr(spec(ones, ones, ones)), ErrorCode::InvalidArgument,
                        "Expected begin, end, and strides to be 1D equal size tensors, but got "
                        "shapes [32], [32], and [32] instead.");
    }

    // The quirks are named in to_expr's notes, so a reader learns why an entry reads as it does.
    void toExprNotesNameQuirks_data()
    {
        QTest::addColumn<Ints>("masks");
        QTest::addColumn<qint64>("stride");
        QTest::addColumn<QString>("note");
        QTest::newRow("new axis and shrink")
            << Ints{0, 0, 0, 1, 1} << qint64(1) << "its shrink bit is ignored: the new axis wins";
        QTest::newRow("begin mask under shrink")
            << Ints{1, 0, 0, 0, 1} << qint64(1) << "the begin_mask bit is ignored for an index";
        QTest::newRow("stride 3 under shrink")
            << Ints{0, 0, 0, 0, 1} << qint64(3) << "stride 3 is accepted and has no effect";
    }

    void toExprNotesNameQuirks()
    {
        QFETCH(Ints, masks);
        QFETCH(qint64, stride);
        QFETCH(QString, note);
        std::vector<std::string> notes;
        ss::toExpr(spec({1}, {2}, {stride}, masks), &notes);
        QStringList all;
        for (const auto& n : notes)
            all << QString::fromStdString(n);
        QVERIFY2(all.join('\n').contains(note), qPrintable(all.join('\n')));
    }
};

QTEST_APPLESS_MAIN(TestSliceExpr)
#include "tst_slice_expr.moc"
