// SPDX-License-Identifier: GPL-3.0-or-later
// Switching ops carries a slice spec between the subscript and the raw strided_slice arguments;
// TFLite's offset, which changes what the ends mean, stops that. A spec is cut to the rank of a
// tensor opened under it, and a file too big to copy opens whole.
#include "core/decode.h"
#include "core/mapped_file.h"
#include "core/op.h"
#include "core/slice_expr.h"
#include "npy_testing.h"
#include "protocol/npy.h"
#include "ui/model/workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::ui;

Q_DECLARE_METATYPE(ss::Shape)

class TestSwitchOp : public QObject
{
    Q_OBJECT
private slots:
    void specIsCutToTheInputsRank_data();
    void specIsCutToTheInputsRank();
    void aFileTooBigToCopyOpensWhole_data();
    void aFileTooBigToCopyOpensWhole();
    void aFileOfMoreThan2To31ElementsOpensWhole();
    void specCarriesOver_data()
    {
        QTest::addColumn<QVariant>("offset"); // invalid: attribute absent
        QTest::addColumn<bool>("carried");
        QTest::newRow("no offset") << QVariant() << true;
        QTest::newRow("offset false") << QVariant(false) << true;
        QTest::newRow("offset true") << QVariant(true) << false;
    }
    void specCarriesOver()
    {
        QFETCH(QVariant, offset);
        QFETCH(bool, carried);
        const OpDef& raw = *findOp("strided_slice");
        const OpDef& getitem = *findOp("getitem");
        Workspace ws = exampleWorkspace(raw); // begin [1, 0], end [3, 0], strides [1, -1], masks 2
        if (offset.isValid()) ws.attrs["offset"] = Attr(offset.toBool());
        const Workspace sub = switchOp(ws, getitem);
        const Workspace example = exampleWorkspace(getitem);
        QCOMPARE(sub.attrs.at("expr").toString(),
                 carried ? std::string("x[1:3, ::-1]") : example.attrs.at("expr").toString());
        // Same notation, an op without offset: the spec, without the attribute it does not have.
        const Workspace toExpr = switchOp(ws, *findOp("to_expr"));
        QCOMPARE(toExpr.attrs.count("offset"), std::size_t(0));
        QCOMPARE(toExpr.attrs.count("begin_mask"), std::size_t(1));
        // And back: the subscript becomes the raw arguments again.
        const Workspace back = switchOp(sub, raw);
        QCOMPARE(back.attrs.count("offset"), std::size_t(0));
        if (carried) QCOMPARE(back.attrs.at("end_mask").toInt(), std::int64_t(2));
    }

    // encode and to_expr hold a spec without a tensor: it is carried into an op that slices one
    // only where it can slice that op's example tensor (getitem's and strided_slice's: 3 x 4).
    void specWithoutATensorMustFitTheExample_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("expr"); // given to encode, or encoded for to_expr
        QTest::addColumn<bool>("carried");
        QTest::newRow("encode's example: rank 4 needed")
            << "encode"
            << "getitem"
            << "x[1, 2:4, None, ..., :-3:-1, :]" << false;
        QTest::newRow("fits") << "encode"
                              << "getitem"
                              << "x[::-1, None, 1:]" << true;
        QTest::newRow("index past the dimension") << "encode"
                                                  << "getitem"
                                                  << "x[5]" << false;
        QTest::newRow("to raw arguments") << "encode"
                                          << "strided_slice"
                                          << "x[1:, 2]" << true;
        QTest::newRow("raw, too many dimensions") << "to_expr"
                                                  << "strided_slice"
                                                  << "x[1, 2, 3]" << false;
        QTest::newRow("raw to a subscript") << "to_expr"
                                            << "getitem"
                                            << "x[:2, ::-1]" << true;
    }
    void specWithoutATensorMustFitTheExample()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, expr);
        QFETCH(bool, carried);
        Workspace ws = exampleWorkspace(*findOp(from.toStdString()));
        if (from == QLatin1String("encode")) {
            ws.attrs = {{"expr", Attr(expr.toStdString())}};
        } else {
            ws.attrs = attrsFromSparse(encodeExpression(expr.toStdString()).sparse);
        }
        const OpDef& target = *findOp(to.toStdString());
        const Workspace next = switchOp(ws, target);
        const Workspace example = exampleWorkspace(target);
        QCOMPARE(next.attrs != example.attrs, carried);
        QCOMPARE(next.inputs.front().front().shape, example.inputs.front().front().shape);
    }
};

void TestSwitchOp::specIsCutToTheInputsRank_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("expr"); // getitem's, or encoded for strided_slice's raw arguments
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<QString>("fitted");
    QTest::newRow("the default on a vector") << "getitem"
                                             << "x[1:, ::-1]" << Shape{7} << "x[1:]";
    QTest::newRow("the default on a scalar") << "getitem"
                                             << "x[1:, ::-1]" << Shape{} << "x[()]";
    QTest::newRow("fits: unchanged") << "getitem"
                                     << "x[1:, ::-1]" << Shape{3, 4} << "x[1:, ::-1]";
    QTest::newRow("new axes and the ellipsis take no dimension")
        << "getitem"
        << "x[None, ..., 1, ::2]" << Shape{5} << "x[None, ..., 1]";
    QTest::newRow("an index out of range stays an error") << "getitem"
                                                          << "x[7, 0]" << Shape{3} << "x[7, 0]";
    QTest::newRow("unfinished: unchanged") << "getitem"
                                           << "x[1:" << Shape{3} << "x[1:";
    QTest::newRow("raw arguments") << "strided_slice"
                                   << "x[1:3, ::-1]" << Shape{7} << "x[1:3]";
}

void TestSwitchOp::specIsCutToTheInputsRank()
{
    QFETCH(QString, op);
    QFETCH(QString, expr);
    QFETCH(Shape, shape);
    QFETCH(QString, fitted);
    const OpDef& def = *findOp(op.toStdString());
    Workspace ws = exampleWorkspace(def);
    ws.attrs = def.notation == Notation::Subscript
                   ? Attrs{{"expr", Attr(expr.toStdString())}}
                   : attrsFromSparse(encodeExpression(expr.toStdString()).sparse);
    ws.inputs.front().front().shape = shape;
    ws.inputs.front().front().fill = FillKind::Arange;
    const Workspace fit = fitSpecToInputRank(ws);
    const std::string got = def.notation == Notation::Subscript
                                ? fit.attrs.at("expr").toString()
                                : toExpr(sparseFromAttrs(fit.attrs).value());
    QCOMPARE(QString::fromStdString(got), fitted);
}

void TestSwitchOp::aFileTooBigToCopyOpensWhole_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("expr"); // getitem's, or encoded for strided_slice's raw arguments
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<QString>("opened");
    QTest::addColumn<QString>("why"); // in the note; empty: no note
    QTest::newRow("the default, a copy too big")
        << "getitem"
        << "x[1:, ::-1]" << Shape{100, 100} << "x[...]"
        << "x[1:, ::-1], cannot be shown (the output of shape [99,100] has 9900 elements, over the "
           "limit of 1000 elements)";
    QTest::newRow("cut to a vector, a copy too big") << "getitem"
                                                     << "x[1:, ::-1]" << Shape{10000} << "x[...]"
                                                     << "x[1:], cannot be shown";
    QTest::newRow("raw arguments: x[...], which reads as x[()]")
        << "strided_slice"
        << "x[1:, ::-1]" << Shape{100, 100} << "x[()]"
        << "x[1:, ::-1], cannot be shown";
    QTest::newRow("a copy that fits: unchanged")
        << "getitem"
        << "x[5:7, ::-1]" << Shape{100, 100} << "x[5:7, ::-1]"
        << "";
    QTest::newRow("another error: unchanged") << "getitem"
                                              << "x[200, 0]" << Shape{100, 100} << "x[200, 0]"
                                              << "";
}

// `slicescope big.npy` opened on the default x[1:, ::-1] and showed only the engine's refusal of
// a copy bigger than it may hold; the file opens on x[...], the tensor itself (no copy), and a note
// says why. 10^4 elements under a limit of 1000.
void TestSwitchOp::aFileTooBigToCopyOpensWhole()
{
    QFETCH(QString, op);
    QFETCH(QString, expr);
    QFETCH(Shape, shape);
    QFETCH(QString, opened);
    QFETCH(QString, why);
    const OpDef& def = *findOp(op.toStdString());
    Workspace ws = exampleWorkspace(def);
    ws.attrs = def.notation == Notation::Subscript
                   ? Attrs{{"expr", Attr(expr.toStdString())}}
                   : attrsFromSparse(encodeExpression(expr.toStdString()).sparse);
    ws.inputs.front().front() =
        dataSource(makeFilled(DType::Float32, shape, Fill::Arange, 0, Limits{}));
    Limits limits;
    limits.maxElements = 1000;
    QString note;
    const Workspace fit = fitSpecToFile(ws, limits, &note);
    const std::string got = def.notation == Notation::Subscript
                                ? fit.attrs.at("expr").toString()
                                : toExpr(sparseFromAttrs(fit.attrs).value());
    QCOMPARE(QString::fromStdString(got), opened);
    QVERIFY2(why.isEmpty() ? note.isEmpty() : note.contains(why), qPrintable(note));
    QCOMPARE(fit.inputs, ws.inputs);
}

// A file of more elements than 32 bits number opens whole, a view of its pages: the views colour
// its read positions (64 bits, worked out from the plan). It opened on its first 65534 rows when
// they coloured at most 2^31 - 1. 65536 x 32769 int8 (2^31 + 2^16 elements) in a sparse file,
// mapped as the workbench maps it.
void TestSwitchOp::aFileOfMoreThan2To31ElementsOpensWhole()
{
    constexpr qint64 rows = 65536, cols = 32769;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.npy"));
    QVERIFY(ss::testing::writeSparseNpy(path, "|i1", "(65536, 32769)", rows * cols));
    setNpyMapping(true);
    const Tensor big = readNpyFile(path.toStdString(), Limits::machineDefault());
    setNpyMapping(false);
    QVERIFY(isMappedFile(big.raw()));
    Workspace ws = exampleWorkspace(*findOp("getitem"));
    ws.attrs = {{"expr", Attr(std::string("x[1:, ::-1]"))}};
    ws.inputs.front().front() = dataSource(big);
    QString note;
    const Workspace fit = fitSpecToFile(ws, Limits::machineDefault(), &note);
    QCOMPARE(QString::fromStdString(fit.attrs.at("expr").toString()), QStringLiteral("x[...]"));
    QVERIFY2(note.startsWith(QStringLiteral("The file opens on x[...], a view of its pages that "
                                            "copies nothing: the spec it would have opened on, "
                                            "x[1:, ::-1], cannot be shown (the output of shape "
                                            "[65535,32769] has 2147516415 elements, over the "
                                            "limit of")),
             qPrintable(note));
}

QTEST_APPLESS_MAIN(TestSwitchOp)
#include "tst_switchop.moc"
