// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's stale/good policy as a table: which evaluation's outputs and inputs the views
// show after the newest evaluation, and when what they show is stale.
#include "ui/model/evaluationpolicy.h"

#include <QTest>

#include <map>

using namespace ss;
using namespace ss::ui;

namespace {

std::vector<std::vector<Tensor>> oneInput(DType dtype, Shape shape,
                                          const std::vector<std::int64_t>& values)
{
    return {{Tensor::fromInts(dtype, std::move(shape), values)}};
}

// Evaluations of the same input value share its tensor, as the engine client's evaluations do
// while an edit leaves that input alone.
std::shared_ptr<const Evaluation> evaluation(bool ok, const QString& op, const QString& framework,
                                             std::int64_t inputValue)
{
    static std::map<std::int64_t, std::vector<std::vector<Tensor>>> made;
    auto it = made.find(inputValue);
    if (it == made.end())
        it = made.emplace(inputValue, oneInput(DType::Int32, Shape{2}, {inputValue, 7})).first;
    auto eval = std::make_shared<Evaluation>();
    eval->ok = ok;
    eval->op = op.toStdString();
    eval->framework = framework;
    eval->inputs = it->second;
    return eval;
}

QString whose(const std::shared_ptr<const Evaluation>& shown,
              const std::shared_ptr<const Evaluation>& newest,
              const std::shared_ptr<const Evaluation>& good)
{
    return !shown            ? QStringLiteral("none")
           : shown == newest ? QStringLiteral("newest")
           : shown == good   ? QStringLiteral("good")
                             : QStringLiteral("other");
}

} // namespace

class TestEvaluationPolicy : public QObject
{
    Q_OBJECT
private slots:
    void chooseShown_data()
    {
        // The newest evaluation: ok, op, framework ("" for the op itself), its input's first
        // element. The last good result: present, op, input. Then what is shown.
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("framework");
        QTest::addColumn<int>("input");
        QTest::addColumn<bool>("hasGood");
        QTest::addColumn<QString>("goodOp");
        QTest::addColumn<int>("goodInput");
        QTest::addColumn<QString>("outputs");
        QTest::addColumn<QString>("inputs");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<bool>("linked");

        const QString gather = QStringLiteral("gather");
        const QString tile = QStringLiteral("tile");
        const QString torch = QStringLiteral("PyTorch 1.13");
        // clang-format off
        QTest::newRow("ok, first result")
            << true << gather << QString() << 1 << false << QString() << 0
            << "newest" << "newest" << false << true;
        QTest::newRow("ok replaces a good result")
            << true << gather << QString() << 2 << true << gather << 1
            << "newest" << "newest" << false << true;
        QTest::newRow("ok, another op")
            << true << tile << QString() << 1 << true << gather << 1
            << "newest" << "newest" << false << true;
        QTest::newRow("framework ok")
            << true << gather << torch << 1 << true << gather << 1
            << "newest" << "newest" << false << true;
        QTest::newRow("failed, nothing good yet")
            << false << gather << QString() << 1 << false << QString() << 0
            << "none" << "newest" << false << false;
        QTest::newRow("failed attribute, same inputs: good result, good selection")
            << false << gather << QString() << 1 << true << gather << 1
            << "good" << "good" << true << true;
        QTest::newRow("failed with new inputs: good outputs, new inputs unlinked")
            << false << gather << QString() << 5 << true << gather << 1
            << "good" << "newest" << true << false;
        QTest::newRow("failed, good result of another op")
            << false << tile << QString() << 1 << true << gather << 1
            << "none" << "newest" << false << false;
        QTest::newRow("framework refuses: not the op's good result")
            << false << gather << torch << 1 << true << gather << 1
            << "none" << "newest" << false << false;
        // clang-format on
    }
    void chooseShown()
    {
        QFETCH(bool, ok);
        QFETCH(QString, op);
        QFETCH(QString, framework);
        QFETCH(int, input);
        QFETCH(bool, hasGood);
        QFETCH(QString, goodOp);
        QFETCH(int, goodInput);
        QFETCH(QString, outputs);
        QFETCH(QString, inputs);
        QFETCH(bool, failed);
        QFETCH(bool, linked);

        const auto newest = evaluation(ok, op, framework, input);
        const auto good = hasGood ? evaluation(true, goodOp, QString(), goodInput) : nullptr;
        const ShownChoice choice = ss::ui::chooseShown(newest, good);
        QCOMPARE(whose(choice.outputs, newest, good), outputs);
        QCOMPARE(whose(choice.inputs, newest, good), inputs);
        QCOMPARE(choice.failed, failed);
        QCOMPARE(choice.linked, linked);
    }

    void sameInputs_data()
    {
        QTest::addColumn<int>("change");
        QTest::addColumn<bool>("same");
        QTest::newRow("the same tensors") << 0 << true;
        QTest::newRow("equal values in another buffer") << 6 << false;
        QTest::newRow("a value") << 1 << false;
        QTest::newRow("the shape, same buffer") << 2 << false;
        QTest::newRow("the dtype") << 3 << false;
        QTest::newRow("one more tensor in a list input") << 4 << false;
        QTest::newRow("one more input") << 5 << false;
    }
    void sameInputs()
    {
        QFETCH(int, change);
        QFETCH(bool, same);
        const auto a = oneInput(DType::Int32, Shape{2, 2}, {1, 2, 3, 4});
        auto b = a; // shares the buffers
        switch (change) {
        case 1: b = oneInput(DType::Int32, Shape{2, 2}, {1, 2, 3, 5}); break;
        case 2: b.front().front() = b.front().front().reshaped(Shape{4}); break;
        case 3: b = oneInput(DType::Int64, Shape{2, 2}, {1, 2, 3, 4}); break;
        case 4: b.front().push_back(b.front().front()); break;
        case 5: b.push_back(b.front()); break;
        case 6: b = oneInput(DType::Int32, Shape{2, 2}, {1, 2, 3, 4}); break;
        default: break;
        }
        QCOMPARE(ss::ui::sameInputs(a, b), same);
        QCOMPARE(ss::ui::sameInputs(b, a), same);
    }

    void isStale_data()
    {
        QTest::addColumn<bool>("hasShown");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<bool>("cancelled");
        QTest::addColumn<bool>("unreadable");
        QTest::addColumn<bool>("stale");
        QTest::newRow("current result") << true << false << false << false << false;
        QTest::newRow("failed edit") << true << true << false << false << true;
        QTest::newRow("cancelled") << true << false << true << false << true;
        QTest::newRow("field does not read") << true << false << false << true << true;
        QTest::newRow("all at once") << true << true << true << true << true;
        QTest::newRow("nothing shown, failed") << false << true << false << false << false;
        QTest::newRow("nothing shown, cancelled") << false << false << true << false << false;
        QTest::newRow("nothing shown, unreadable") << false << false << false << true << false;
    }
    void isStale()
    {
        QFETCH(bool, hasShown);
        QFETCH(bool, failed);
        QFETCH(bool, cancelled);
        QFETCH(bool, unreadable);
        QFETCH(bool, stale);
        QCOMPARE(ss::ui::isStale(hasShown, StaleReasons{failed, cancelled, unreadable}), stale);
    }
};

QTEST_APPLESS_MAIN(TestEvaluationPolicy)
#include "tst_evaluationpolicy.moc"
