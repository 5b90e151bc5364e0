// SPDX-License-Identifier: GPL-3.0-or-later
// The pasted-call reader (core/call_expr.h): each call of the table is translated, run through
// the engine op it becomes, and compared with the library that reads it where one runs here
// (NumPy for np.take and subscripts, PyTorch for narrow; TensorFlow's and PaddlePaddle's calls
// against the NumPy subscript that reads the same elements, since their semantics are the
// engine's own). Calls the reader refuses say where they stopped: the position and the message.
#include "core/call_expr.h"
#include "numpy_oracle.h"
#include "op_runner.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

struct Row
{
    const char* shape; ///< "3,4"; empty: the reader is not told the shape
    const char* call;
    /// Python on x = arange(shape) (NumPy, or PyTorch after "torch:"), or empty (no reference).
    const char* reference;
    /// For a call the reader refuses: where it stops (the text there) and part of the message.
    const char* errorAt = nullptr;
    const char* errorText = nullptr;
};

// clang-format off
const Row kRows[] = {
    // tf.strided_slice and its spellings.
    {"3,4", "tf.strided_slice(x, [0, 1], [0, -1], [1, 2], begin_mask=1, end_mask=1)", "x[:, 1:-1:2]"},
    {"3,4", "tf.strided_slice(x, [1], [3])", "x[1:3]"},
    {"4,5", "tf.compat.v1.strided_slice(x, [0, 0], [2, 3], strides=[1, 1], shrink_axis_mask=1)", "x[0, 0:3]"},
    {"2,3,4", "tf.strided_slice(x, [0, 0], [1, 2], [1, 1], ellipsis_mask=1)", "x[..., 0:2]"},
    {"3,4", "tf.strided_slice(x, [0, 0, 0], [0, 2, 4], [1, 1, 1], new_axis_mask=1)", "x[None, 0:2, 0:4]"},
    {"3,4", "y = tf.strided_slice(x, begin=[2], end=[0], strides=[-1]);", "x[2:0:-1]"},
    {"5", "tf.raw_ops.StridedSlice(input=x, begin=[4], end=[0], strides=[-2], end_mask=1)", "x[4::-2]"},
    {"3,4", "tensorflow.strided_slice(x, tf.constant([1, 0]), tf.constant([3, 4]), [1, 3])", "x[1:3, 0:4:3]"},
    {"3,4", "tf.strided_slice(x, [0, 1], [2, 3], [1, 1], 0, 0, 0, 0, 2, None, 'crop')", "x[0:2, 1]"},
    // tf.slice
    {"3,4", "tf.slice(x, [1, 0], [2, -1])", "x[1:3, 0:]"},
    {"2,3,4", "tf.slice(x, begin=[0, 1, 1], size=[1, 2, 3])", "x[0:1, 1:3, 1:4]"},
    {"3,4", "tf.raw_ops.Slice(input=x, begin=[0, 2], size=[3, 2])", "x[:, 2:4]"},
    {"3,4", "tf.slice(x, [2, 0], [2, 1])", "torch:x.narrow(0, 2, 2)"}, // both refuse
    // tf.gather
    {"3,4", "tf.gather(x, [3, 1], axis=1)", "np.take(x, [3, 1], axis=1)"},
    {"3,4", "tf.gather(x, [[2, 0], [1, 1]])", "np.take(x, [[2, 0], [1, 1]], axis=0)"},
    {"2,3,4", "tf.gather(x, [[0, 2], [1, 0]], axis=2, batch_dims=1)",
     "np.stack([np.take(x[b], [[0, 2], [1, 0]][b], axis=1) for b in range(2)])"},
    {"2,3", "tf.gather(x, 2, axis=1)", "x[:, 2]"},
    {"3,4", "tf.compat.v1.gather(x, [0, 2], None, None, 1)", "np.take(x, [0, 2], axis=1)"},
    {"2,3,4", "tf.gather(x, [[1], [0]], batch_dims=1)", "np.stack([x[b][[[1], [0]][b]] for b in range(2)])"},
    {"3,4", "tf.raw_ops.GatherV2(params=x, indices=[0, 0], axis=-1)", "np.take(x, [0, 0], axis=-1)"},
    {"3,4", "tf.gather(x, [4], axis=1)", "np.take(x, [4], axis=1)"}, // both refuse
    // paddle.strided_slice
    {"3,4", "paddle.strided_slice(x, axes=[0, 1], starts=[1, 0], ends=[3, 4], strides=[1, 2])", "x[1:3, 0:4:2]"},
    // PaddlePaddle's own clamping: an end of -6 on a dimension of 5 stops before element 0.
    {"4,5", "paddle.strided_slice(x, [1], [-1], [-6], [-1])", "x[:, 4:0:-1]"},
    // torch.narrow and Tensor.narrow
    {"3,4", "torch.narrow(x, 0, 1, 2)", "torch:torch.narrow(x, 0, 1, 2)"},
    {"3,4", "x.narrow(1, -3, 2)", "torch:x.narrow(1, -3, 2)"},
    {"2,3,4", "x.narrow(dim=-1, start=0, length=0)", "torch:x.narrow(dim=-1, start=0, length=0)"},
    {"3,4", "torch.narrow(x, 1, 4, 0)", "torch:torch.narrow(x, 1, 4, 0)"},
    {"3,4", "torch.narrow(x, 1, 2, 3)", "torch:torch.narrow(x, 1, 2, 3)", "3)", "exceeds dimension size (4)"},
    {"3,4", "x.narrow(0, 1, -1)", "torch:x.narrow(0, 1, -1)", "-1)", "length must be non-negative"},
    {"3,4", "x.narrow(0, -4, 1)", "torch:x.narrow(0, -4, 1)", "-4", "start out of range"},
    {"3,4", "x.narrow(2, 0, 1)", "torch:x.narrow(2, 0, 1)", "2, 0", "out of range for an input of rank 2"},
    // np.take and ndarray.take
    {"3,4", "np.take(x, [2, 0], axis=1)", "np.take(x, [2, 0], axis=1)"},
    {"3,4", "np.take(x, [-1, 0], axis=0)", "np.take(x, [-1, 0], axis=0)"},
    {"3,4", "np.take(x, [[5, -7]], axis=1, mode='wrap')", "np.take(x, [[5, -7]], axis=1, mode='wrap')"},
    {"3,4", "numpy.take(x, [9, -2], axis=1, mode=\"clip\")", "np.take(x, [9, -2], axis=1, mode='clip')"},
    {"3,4", "x.take([1], axis=-1)", "x.take([1], axis=-1)"},
    {"3,4", "np.take(x, 1, axis=1)", "np.take(x, 1, axis=1)"},
    {"3,4", "np.take(x, [3], axis=0)", "np.take(x, [3], axis=0)"}, // both refuse
    {"3,4", "np.take(x, [0, -4], axis=0)", "np.take(x, [0, -4], axis=0)", "-4]", "index -4 is out of bounds for axis 0 with size 3"},
    {"3,4", "np.take(x, [1, 2])", nullptr, ")", "np.take without axis="},
    // A required argument given as None has no value (fuzz_call found these dereferenced).
    {"3,4", "np.take(x, None, axis=0)", nullptr, "None, axis", "needs a value for 'indices'"},
    {"3,4", "torch.narrow(x, None, 1, 2)", nullptr, "None, 1, 2", "needs a value for 'dim'"},
    {"3,4", "np.take(x, [0], axis=0, mode='bogus')", "np.take(x, [0], axis=0, mode='bogus')", "'bogus'", "clipmode must be one of"},
    // chained subscripts, composed into one
    {"3,4", "x[1][2]", "x[1][2]"},
    {"2,3,4", "x[:, 1][0]", "x[:, 1][0]"},
    {"3,4", "x[None][0]", "x[None][0]"},
    {"2,3,4", "x[0][:, ::-1][None, 1]", "x[0][:, ::-1][None, 1]"},
    {"3,4", "t[1][-1]", "x[1][-1]"},
    {"2,3,4", "x[1][..., 2]", "x[1][..., 2]"},
    {"3,4", "x[0:2][:, 1]", "x[0:2][:, 1]"},
    {"2,3,4", "x[:, ::-1][1:][:, :, None]", "x[:, ::-1][1:][:, :, None]"},
    {"2,3,4", "x[1:][0]", nullptr, "0]", "indexes the result of '1:'"},
    {"2,3,4", "x[..., 0][1]", nullptr, "1]", "'...' of the subscript before"},
    {"3,4", "x[[0, 1]][0]", nullptr, "[0, 1]", "compose integers, slices, None and ... only"},
    {"3,4", "x[1][2] + 1", nullptr, "+ 1", "unexpected text after the subscript"},
    // what the reader refuses, and where it stops
    {"3,4", "tf.strided_slice(x, [0, 1], [2, 3], begin_mask=1, end_mask=foo)", nullptr, "foo", "end_mask is 'foo', a name the text does not give"},
    {"3,4", "tf.strided_slice(x, [0, 1])", nullptr, ")", "missing its argument 'end'"},
    {"3,4", "tf.strided_slice(x, [0], [1], bogus=2)", nullptr, "bogus", "has no argument 'bogus'"},
    {"3,4", "tf.gather(x, idx, axis=1)", nullptr, "idx", "indices is 'idx'"},
    {"3,4", "tf.reshape(x, [2, 6])", nullptr, "tf.reshape", "does not read tf.reshape(...)"},
    {"3,4", "tf.strided_slice(x, [0, 1], [2, 3]", nullptr, "", "expected ')' to close the call"},
    {"3,4", "tf.slice(x, [1, 0], [2, 1.5])", nullptr, "1.5", "size must be a list of integers, got 1.5"},
    {"3,4", "tf.strided_slice(x, begin=[0], [1])", nullptr, "[1])", "a positional argument follows a keyword argument"},
    {"3,4", "tf.gather(x, [[1, 2], [3]])", nullptr, "[[1, 2], [3]]", "ragged"},
    {"", "x.narrow(0, 1, 1)", nullptr, "0, 1", "narrow needs the input's shape"},
    {"3,4", "tf.strided_slice([1, 2], [0], [1])", nullptr, "[1, 2]", "is the tensor sliced"},
    {"3,4", "tf.gather(x, [0], axis=0, axis=1)", nullptr, "axis=1", "'axis' is given twice"},
    {"3,4", "paddle.strided_slice(x, axes=[0], starts=[0], ends=[1])", nullptr, ")", "missing its argument 'strides'"},
    {"3,4", "tf.strided_slice(x, [0], [1], tf.ones(1))", nullptr, "tf.ones(1)", "computed at run time"},
    {"3,4", "tf.strided_slice(x, [0, 1], [2, 3], end_mask=1 2)", nullptr, "2)", "expected ',' or ')'"},
    {"3,4", "tf.raw_ops.Slice(x, [0], [1])", nullptr, "x, [0]", "keyword arguments only"},
    {"3,4", "tf.slice(x, [0], [1], 'name', 5)", nullptr, "5)", "at most 4 positional arguments"},
    {"3,4", "", nullptr, "", "the text is empty"},
};
// clang-format on

Shape shapeOf(const char* text)
{
    Shape s;
    for (const QString& part : QString::fromLatin1(text).split(',', Qt::SkipEmptyParts))
        s.push_back(part.toLongLong());
    return s;
}

// Each reference's outcome: "ok <shape> <values>" or "error <exception>", in the table's order.
const char* const kScript = R"PY(
import sys
import numpy as np
lines = sys.stdin.read().split('\n')
torch = None
for line in lines:
    if not line:
        continue
    shape_text, expr = line.split(';', 1)
    shape = tuple(int(d) for d in shape_text.split(',') if d)
    n = int(np.prod(shape)) if shape else 1
    try:
        if expr.startswith('torch:'):
            if torch is None:
                import torch
            x = torch.arange(n, dtype=torch.int64).reshape(shape)
            y = eval(expr[6:]).numpy()
        else:
            x = np.arange(n, dtype=np.int64).reshape(shape)
            y = np.asarray(eval(expr))
        print('ok', ','.join(str(d) for d in y.shape) or '-', ' '.join(str(int(v)) for v in y.ravel()))
    except Exception as e:
        print('error', type(e).__name__)
)PY";

} // namespace

class TestCallExpr : public QObject
{
    Q_OBJECT

private:
    QStringList m_references; ///< one per row of kRows with a reference, else empty

private slots:
    void initTestCase()
    {
        QByteArray input;
        for (const Row& row : kRows)
            if (row.reference) input += QByteArray(row.shape) + ';' + row.reference + '\n';
        const QStringList out =
            QString::fromUtf8(runNumpy(QString::fromLatin1(kScript), input)).split('\n');
        int k = 0;
        for (const Row& row : kRows)
            m_references << (row.reference ? out.value(k++) : QString());
    }

    void calls_data()
    {
        QTest::addColumn<int>("row");
        int k = 0;
        for (const Row& row : kRows)
            QTest::newRow(row.call[0] ? row.call : "(empty)") << k++;
        QVERIFY(k >= 40);
    }

    void calls()
    {
        QFETCH(int, row);
        const Row& r = kRows[row];
        const QString reference = m_references[row];
        const std::optional<Shape> shape =
            r.shape[0] ? std::optional<Shape>(shapeOf(r.shape)) : std::nullopt;
        if (r.errorText) {
            // The reader refuses, naming the place; the library refuses it too.
            try {
                translateCall(r.call, shape);
                QFAIL("the reader accepted the call");
            } catch (const OpError& e) {
                QCOMPARE(std::string(errorCodeName(e.code())), std::string("parse_error"));
                const std::string call = r.call;
                const std::size_t at = r.errorAt[0] ? call.rfind(r.errorAt) : call.size();
                QVERIFY2(at != std::string::npos, r.errorAt);
                QCOMPARE(e.position().value_or(-1), int(at));
                const std::string message = e.what();
                QVERIFY2(message.find(r.errorText) != std::string::npos, message.c_str());
                QVERIFY2(message.find("(at position " + std::to_string(at)) != std::string::npos,
                         message.c_str());
            }
            if (r.reference) QVERIFY2(reference.startsWith("error"), qPrintable(reference));
            return;
        }
        const CallTranslation t = translateCall(r.call, shape);
        const OpDef* def = findOp(t.op);
        QVERIFY2(def, t.op.c_str());
        std::vector<std::vector<Tensor>> inputs{{iota(*shape)}};
        for (std::size_t k = 1; k < def->inputs.size(); ++k) {
            const auto it =
                std::find_if(t.givenInputs.begin(), t.givenInputs.end(),
                             [&](const auto& g) { return g.first == def->inputs[k].name; });
            QVERIFY2(it != t.givenInputs.end(), def->inputs[k].name.c_str());
            inputs.push_back({it->second});
        }
        QVERIFY(reference.startsWith("ok") || reference.startsWith("error"));
        if (reference.startsWith("error")) {
            // The library refuses: so does the op the call became.
            bool refused = false;
            try {
                runOp(t.op, std::move(inputs), t.attrs);
            } catch (const OpError&) {
                refused = true;
            }
            QVERIFY2(refused,
                     qPrintable("the engine answered where the library says " + reference));
            return;
        }
        const OpRun run = runOp(t.op, std::move(inputs), t.attrs);
        const QStringList parts = reference.split(' ');
        QString shapeText;
        for (const std::int64_t d : run.outputs[0].shape())
            shapeText += (shapeText.isEmpty() ? "" : ",") + QString::number(d);
        QCOMPARE(shapeText.isEmpty() ? QStringLiteral("-") : shapeText, parts.value(1));
        QStringList values;
        for (const std::int64_t v : run.outputs[0].toInt64Vector())
            values << QString::number(v);
        QCOMPARE(values.join(' '), parts.mid(2).join(' '));
    }

    // What the window and the CLI send to the call reader rather than the subscript parser.
    void looksLikeCall_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("call");
        QTest::newRow("strided_slice") << "tf.strided_slice(x, [0], [1])" << true;
        QTest::newRow("assignment") << "y = np.take(x, [1], axis=0)" << true;
        QTest::newRow("method") << "x.narrow(0, 1, 2)" << true;
        QTest::newRow("chained") << "x[1][2]" << true;
        QTest::newRow("chained spaced") << "t [1] [::2]" << true;
        QTest::newRow("subscript") << "x[1, 2:4]" << false;
        QTest::newRow("bare subscript") << "1, ::2" << false;
        QTest::newRow("comparison mask") << "x[x > 3]" << false;
        QTest::newRow("half typed") << "x[1" << false;
        QTest::newRow("empty") << "" << false;
    }
    void looksLikeCall()
    {
        QFETCH(QString, text);
        QFETCH(bool, call);
        QCOMPARE(ss::looksLikeCall(text.toStdString()), call);
    }

    // The translation itself, for the forms whose attributes matter beyond the result.
    void attributes()
    {
        const CallTranslation t =
            translateCall("tf.strided_slice(x, [0, 1], [0, -1], [1, 2], begin_mask=1, end_mask=1)");
        QCOMPARE(t.op, std::string("strided_slice"));
        QCOMPARE(t.tensor, std::string("x"));
        QCOMPARE(t.function, std::string("tf.strided_slice"));
        QVERIFY(t.attrs.at("begin") == Attr::ints({0, 1}));
        QVERIFY(t.attrs.at("end") == Attr::ints({0, -1}));
        QVERIFY(t.attrs.at("strides") == Attr::ints({1, 2}));
        QVERIFY(t.attrs.at("begin_mask") == Attr(std::int64_t(1)));
        QVERIFY(t.attrs.at("end_mask") == Attr(std::int64_t(1)));
        QVERIFY(!t.attrs.count("ellipsis_mask"));

        const CallTranslation g = translateCall("tf.gather(params, [3, 1], axis=1)");
        QCOMPARE(g.tensor, std::string("params"));
        QCOMPARE(g.givenInputs.size(), std::size_t(1));
        QCOMPARE(g.givenInputs[0].second.dtype(), DType::Int32);
        QCOMPARE(g.givenInputs[0].second.toInt64Vector(), (std::vector<std::int64_t>{3, 1}));
        // An index past int32 makes the indices int64, as TensorFlow infers a literal.
        const CallTranslation wide = translateCall("tf.gather(x, [4294967296])");
        QCOMPARE(wide.givenInputs[0].second.dtype(), DType::Int64);

        const CallTranslation c = translateCall("x[0][:, ::-1][None, 1]");
        QCOMPARE(c.attrs.at("expr").toString(), std::string("x[0, None, 1, ::-1]"));
        const CallTranslation one = translateCall("x[[0, 2], 1:]");
        QCOMPARE(one.attrs.at("expr").toString(), std::string("x[[0, 2], 1:]"));
    }
};

QTEST_APPLESS_MAIN(TestCallExpr)
#include "tst_call_expr.moc"
