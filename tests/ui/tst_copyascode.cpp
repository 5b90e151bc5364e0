// SPDX-License-Identifier: GPL-3.0-or-later
// Edit > Copy as puts exactly the engine's code on the clipboard (runnableCode: the inputs built,
// then the framework models' code() for a spec, opCode() for every other op, `y = ` the result;
// the "no direct equivalent" reason where there is none), and Ctrl+C on a tensor view copies
// the tensor as a NumPy literal.
#include "core/frameworks/code_snippet.h"
#include "core/frameworks/op_equivalents.h"
#include "ui/model/numpyliteral.h"
#include "ui/model/workspacefile.h"
#include "ui/workbench/copyasmenu.h"
#include "workbench_testing.h"

#include <QApplication>
#include <QClipboard>
#include <QMenuBar>
#include <QTest>

#include <cmath>
#include <limits>

Q_DECLARE_METATYPE(ss::Tensor)
Q_DECLARE_METATYPE(ss::Shape)

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

CopyAsMenu* copyAsMenu(MainWindow& w)
{
    return w.findChild<CopyAsMenu*>(QStringLiteral("copyAsMenu"));
}

// The last line of a piece of code: the model's or the table's own, which the snippet keeps.
QString lastLine(const std::string& code)
{
    QString text = QString::fromStdString(code);
    while (text.endsWith(u'\n'))
        text.chop(1);
    return text.mid(text.lastIndexOf(u'\n') + 1);
}

QString clipboard()
{
    return QGuiApplication::clipboard()->text();
}

// Fills a float tensor with `values`.
Tensor floats(Shape shape, std::vector<double> values)
{
    Tensor t = Tensor::zeros(DType::Float64, std::move(shape));
    for (std::size_t k = 0; k < values.size(); ++k)
        t.data<double>()[k] = values[k];
    return t;
}

} // namespace

class TestCopyAsCode : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    void specIsTheModelsCode_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<Shape>("shape");
        QTest::newRow("negative step") << "x[4:-6:-1]" << Shape{5};
        QTest::newRow("ellipsis and new axis") << "x[..., None, 1]" << Shape{2, 3, 4};
        QTest::newRow("index") << "x[1, ::2]" << Shape{3, 4};
    }
    void specIsTheModelsCode()
    {
        QFETCH(QString, expr);
        QFETCH(Shape, shape);
        MainWindow w;
        w.forgetSession();
        w.setWorkspace(getitemWorkspace(shape, expr), QStringLiteral("spec"));
        CopyAsMenu* menu = copyAsMenu(w);
        QVERIFY(menu);
        // It is in the Edit menu.
        bool inEdit = false;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->menu()->actions().contains(menu->menuAction()))
                inEdit = a->text() == QStringLiteral("&Edit");
        QVERIFY(inEdit);
        menu->refresh();
        const IndexSpec spec = IndexSpec::fromExpression(expr.toStdString());
        for (const FrameworkModel* model : frameworkModels()) {
            QGuiApplication::clipboard()->clear();
            menu->action(model->id())->trigger();
            QCOMPARE(clipboard(), CopyAsMenu::code(model->id(), w.workspace()));
            // The model's own code, after the input it slices.
            const QString own = lastLine(model->code(spec, shape));
            QVERIFY2(clipboard().contains(own), qPrintable(clipboard()));
            QVERIFY2(clipboard().indexOf(QStringLiteral("\nx = ")) < clipboard().indexOf(own),
                     qPrintable(clipboard()));
            QVERIFY(!menu->action(model->id())->text().contains(u"no direct equivalent"));
        }
    }

    // What the issue asked for: the input built, `y = `, and the names the GUI shows.
    void snippetsRunAsPasted_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("expected");
        QTest::newRow("getitem") << "getitem"
                                 << "import numpy as np\n\n"
                                    "x = np.arange(12, dtype=np.int32).reshape(3, 4)\n"
                                    "y = x[1:, ::-2]\n";
        QTest::newRow("gather") << "gather"
                                << "import numpy as np\n\n"
                                   "params = np.arange(12, dtype=np.int32).reshape(4, 3)\n"
                                   "indices = np.array([3, 1, 1], dtype=np.int32)\n"
                                   "# np.take has no batch_dims.\n"
                                   "y = np.take(params, indices, axis=0)\n";
    }
    void snippetsRunAsPasted()
    {
        QFETCH(QString, op);
        QFETCH(QString, expected);
        MainWindow w;
        w.forgetSession();
        w.setWorkspace(exampleWorkspace(*findOp(op.toStdString())), op);
        QGuiApplication::clipboard()->clear();
        copyAsMenu(w)->action(Framework::NumPy)->trigger();
        QCOMPARE(clipboard(), expected);
    }

    // A random fill is written out as the workbench made it; one too large to write is refused
    // with the reason, which is what the item copies.
    void randomInputsAreWrittenOut()
    {
        Workspace ws = getitemWorkspace({2, 2}, QStringLiteral("x[::-1]"));
        ws.inputs[0][0].fill = FillKind::Random;
        ws.inputs[0][0].seed = 7;
        const Tensor made = materialize(ws.inputs[0][0], Limits::machineDefault());
        const QString code = CopyAsMenu::code(Framework::PyTorch, ws);
        QVERIFY2(code.contains(QStringLiteral("x = torch.tensor([[%1, %2], [%3, %4]], "
                                              "dtype=torch.int32)")
                                   .arg(made.intAt(0))
                                   .arg(made.intAt(1))
                                   .arg(made.intAt(2))
                                   .arg(made.intAt(3))),
                 qPrintable(code));
        ws.inputs[0][0].shape = {1000, 1000};
        try {
            CopyAsMenu::code(Framework::NumPy, ws);
            QFAIL("a million random elements were written out");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY2(QString::fromUtf8(e.what()).contains(u"too many to write out"), e.what());
        }
    }

    void rawArgumentsAreTheModelsCode()
    {
        MainWindow w;
        w.forgetSession();
        const Workspace ws = exampleWorkspace(*findOp("strided_slice"));
        w.setWorkspace(ws, QStringLiteral("strided_slice"));
        const IndexSpec spec = IndexSpec::fromAttrs("strided_slice", ws.attrs);
        for (const FrameworkModel* model : frameworkModels()) {
            QGuiApplication::clipboard()->clear();
            copyAsMenu(w)->action(model->id())->trigger();
            QCOMPARE(clipboard(), CopyAsMenu::code(model->id(), ws));
            const QString own = lastLine(model->code(spec, knownShape(ws.inputs.front().front())));
            QVERIFY2(clipboard().contains(own), qPrintable(clipboard()));
        }
    }

    void otherOpsAreTheTablesCode()
    {
        MainWindow w;
        w.forgetSession();
        const OpDef& tile = *findOp("tile");
        const Workspace ws = exampleWorkspace(tile);
        w.setWorkspace(ws, QStringLiteral("tile"));
        for (const FrameworkModel* model : frameworkModels()) {
            QGuiApplication::clipboard()->clear();
            copyAsMenu(w)->action(model->id())->trigger();
            QCOMPARE(clipboard(), CopyAsMenu::code(model->id(), ws));
            const QString own = lastLine(opCode(model->id(), tile, ws.attrs));
            QVERIFY2(clipboard().contains(own), qPrintable(clipboard()));
        }
    }

    // pad in SYMMETRIC mode has no PyTorch equivalent: the item says so, and copies why.
    void noDirectEquivalentSaysSo()
    {
        MainWindow w;
        w.forgetSession();
        const OpDef& pad = *findOp("pad");
        Workspace ws = exampleWorkspace(pad);
        ws.attrs["mode"] = Attr(std::string("SYMMETRIC"));
        w.setWorkspace(ws, QStringLiteral("pad"));
        CopyAsMenu* menu = copyAsMenu(w);
        menu->refresh();
        QAction* torch = menu->action(Framework::PyTorch);
        QVERIFY2(torch->text().contains(u"no direct equivalent"), qPrintable(torch->text()));
        QVERIFY2(torch->statusTip().startsWith(u"no direct equivalent in PyTorch"),
                 qPrintable(torch->statusTip()));
        torch->trigger();
        QCOMPARE(clipboard(), QStringLiteral("# ") + torch->statusTip());
        // NumPy has one.
        QAction* numpy = menu->action(Framework::NumPy);
        QVERIFY(!numpy->text().contains(u"no direct equivalent"));
        numpy->trigger();
        QCOMPARE(clipboard(), CopyAsMenu::code(Framework::NumPy, ws));
        QVERIFY(clipboard().contains(lastLine(opCode(Framework::NumPy, pad, ws.attrs))));
    }

    void requestIsTheWorkspaceRequest()
    {
        MainWindow w;
        w.forgetSession();
        w.setWorkspace(getitemWorkspace({5}, QStringLiteral("x[::-1]")), QStringLiteral("spec"));
        QAction* request =
            copyAsMenu(w)->findChild<QAction*>(QStringLiteral("actionCopyAs_request"));
        QVERIFY(request);
        request->trigger();
        QCOMPARE(clipboard(), QString::fromStdString(workspaceToJson(w.workspace())));
    }

    void badSpecCopiesNothing()
    {
        MainWindow w;
        w.forgetSession();
        w.setWorkspace(getitemWorkspace({5}, QStringLiteral("x[1:")), QStringLiteral("spec"));
        QGuiApplication::clipboard()->setText(QStringLiteral("before"));
        QVERIFY(w.message().isEmpty()); // not evaluated yet: what follows is the copy's
        copyAsMenu(w)->action(Framework::NumPy)->trigger();
        QCOMPARE(clipboard(), QStringLiteral("before"));
        QVERIFY2(!w.message().isEmpty(), "a bad spec is reported in the window");
    }

    void numpyLiterals_data()
    {
        QTest::addColumn<Tensor>("tensor");
        QTest::addColumn<QString>("literal");
        Tensor m = Tensor::zeros(DType::Int32, {2, 3});
        for (int k = 0; k < 6; ++k)
            m.data<std::int32_t>()[k] = k;
        QTest::newRow("matrix") << m
                                << "np.array([[0, 1, 2],\n          [3, 4, 5]], dtype=np.int32)";
        Tensor cube = Tensor::zeros(DType::Int8, {2, 1, 2});
        for (int k = 0; k < 4; ++k)
            cube.data<std::int8_t>()[k] = std::int8_t(-k);
        QTest::newRow("rank 3") << cube
                                << "np.array([[[0, -1]],\n\n          [[-2, -3]]], dtype=np.int8)";
        QTest::newRow("scalar") << Tensor::scalar(DType::Int64, std::int64_t(7))
                                << "np.array(7, dtype=np.int64)";
        QTest::newRow("empty") << Tensor::zeros(DType::Int32, {0, 3})
                               << "np.empty((0, 3), dtype=np.int32)";
        QTest::newRow("empty vector")
            << Tensor::zeros(DType::Float32, {0}) << "np.empty((0,), dtype=np.float32)";
        QTest::newRow("floats")
            << floats({5},
                      {1.0, 0.1, std::nan(""), -std::numeric_limits<double>::infinity(), 1e300})
            << "np.array([1.0, 0.1, np.nan, -np.inf, 1e+300], dtype=np.float64)";
        Tensor b = Tensor::zeros(DType::Bool, {2});
        b.data<bool>()[0] = true;
        b.data<bool>()[1] = false;
        QTest::newRow("bool") << b << "np.array([True, False], dtype=np.bool_)";
        Tensor s = Tensor::zeros(DType::String, {2});
        s.data<std::string>()[0] = "it's";
        s.data<std::string>()[1] = std::string("a\n\xff", 3);
        s.setHoldsBytes(true); // NumPy's repr of the array a '|S' file holds
        QTest::newRow("bytes") << s << "np.array([b\"it's\", b'a\\n\\xff'], dtype='|S4')";
        s.setItemLength(6); // as a '|S6' file gives them
        QTest::newRow("bytes of a '|S6' file")
            << s << "np.array([b\"it's\", b'a\\n\\xff'], dtype='|S6')";
        Tensor text = Tensor::zeros(DType::String, {2});
        text.data<std::string>()[0] = "it's";
        text.data<std::string>()[1] = "\xc3\xa9\t";
        QTest::newRow("text") << text
                              << QString::fromUtf8(
                                     "np.array([\"it's\", '\xc3\xa9\\t'], dtype='<U4')");
        Tensor half = Tensor::zeros(DType::Float16, {2});
        half.setFromDouble(0, 0.1);
        half.setFromDouble(1, -1.5);
        QTest::newRow("float16") << half << "np.array([0.1, -1.5], dtype=np.float16)";
        // NumPy has no bfloat16: the text says so and binds the name; the values are exact, so
        // that the float32 NumPy falls back to holds the bfloat16 values themselves.
        Tensor brain = Tensor::zeros(DType::BFloat16, {2});
        brain.setFromDouble(0, 0.1);
        brain.setFromDouble(1, -1.5);
        QTest::newRow("bfloat16") << brain
                                  << QString::fromStdString(numpyBFloat16Prelude()) +
                                         "np.array([0.10009765625, -1.5], dtype=bfloat16)";
        Tensor complex = Tensor::zeros(DType::Complex64, {1});
        complex.setFromComplex(0, {1.0, -2.5});
        QTest::newRow("complex64")
            << complex << "np.array([complex(1.0, -2.5)], dtype=np.complex64)";
        Tensor big = Tensor::zeros(DType::UInt64, {1});
        big.data<std::uint64_t>()[0] = ~std::uint64_t(0);
        QTest::newRow("uint64") << big << "np.array([18446744073709551615], dtype=np.uint64)";
    }
    void numpyLiterals()
    {
        QFETCH(Tensor, tensor);
        QFETCH(QString, literal);
        QCOMPARE(numpyLiteral(tensor), literal);
    }

    // The views have no cell selection: Ctrl+C copies the whole tensor as a NumPy literal.
    void ctrlCCopiesTheTensor()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setWorkspace(getitemWorkspace({2, 3}, QStringLiteral("x[:, ::-1]")), QStringLiteral("s"));
        QVERIFY(waitSettled(w));
        QGuiApplication::clipboard()->clear();
        TensorView* input = w.inputView(0);
        QApplication::setActiveWindow(&w);
        input->viewport()->setFocus();
        QVERIFY(QTest::qWaitFor([&] { return input->viewport()->hasFocus(); }));
        QTest::keySequence(input->viewport(), QKeySequence::Copy);
        QCOMPARE(clipboard(),
                 QStringLiteral("np.array([[0, 1, 2],\n          [3, 4, 5]], dtype=np.int32)"));
        w.outputView(0)->viewport()->setFocus();
        QTest::keySequence(w.outputView(0)->viewport(), QKeySequence::Copy);
        QCOMPARE(clipboard(),
                 QStringLiteral("np.array([[2, 1, 0],\n          [5, 4, 3]], dtype=np.int32)"));
    }

    void tooLargeToCopy()
    {
        TensorView view;
        view.setTensor(Tensor::zeros(DType::Int32, {kNumpyLiteralLimit + 1}),
                       QStringLiteral("big"));
        QGuiApplication::clipboard()->setText(QStringLiteral("before"));
        QString error;
        QVERIFY(!view.copyAsNumpy(&error));
        QVERIFY2(error.contains(u"Export Output"), qPrintable(error));
        QCOMPARE(clipboard(), QStringLiteral("before"));
    }
};

QTEST_MAIN(TestCopyAsCode)
#include "tst_copyascode.moc"
