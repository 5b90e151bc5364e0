// SPDX-License-Identifier: GPL-3.0-or-later
// readElements: the first elements read, in read order, holding memory for those only (every
// read element as a pair took 16 bytes each: 400 MB for an int8 input of 25 million elements,
// which got the window killed in a 400 MB memory cgroup when the automation state was asked).
#include "ui/model/readordermap.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace ss::ui;

class TestReadOrder : public QObject
{
    Q_OBJECT
private slots:
    void readElementsKeepsTheFirstOnly_data();
    void readElementsKeepsTheFirstOnly();
};

void TestReadOrder::readElementsKeepsTheFirstOnly_data()
{
    QTest::addColumn<qint64>("size");
    QTest::addColumn<int>("everyNth"); // every n-th element is read
    QTest::addColumn<qint64>("limit");
    QTest::newRow("none asked") << qint64(1000) << 1 << qint64(0);
    QTest::newRow("a few of many") << qint64(100000) << 3 << qint64(10);
    QTest::newRow("more than are read") << qint64(100) << 7 << qint64(50);
    QTest::newRow("exactly those read") << qint64(100) << 2 << qint64(50);
    QTest::newRow("all (negative limit)") << qint64(1000) << 5 << qint64(-1);
    QTest::newRow("nothing read") << qint64(100) << 0 << qint64(10);
}

void TestReadOrder::readElementsKeepsTheFirstOnly()
{
    QFETCH(qint64, size);
    QFETCH(int, everyNth);
    QFETCH(qint64, limit);
    // Read positions in a shuffled order, so the first read are spread over the tensor.
    std::vector<StoredPosition> positions;
    for (qint64 i = 0; everyNth > 0 && i < size; i += everyNth)
        positions.push_back(StoredPosition(positions.size()));
    std::shuffle(positions.begin(), positions.end(), std::mt19937(7));
    StoredPositions order(std::size_t(size), StoredPosition(-1));
    std::vector<std::pair<ReadPosition, std::int64_t>> expected;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const std::int64_t flat = std::int64_t(k) * everyNth;
        order[std::size_t(flat)] = positions[k];
        expected.emplace_back(positions[k], flat);
    }
    std::sort(expected.begin(), expected.end());
    if (limit >= 0 && qint64(expected.size()) > limit) expected.resize(std::size_t(limit));
    const ReadOrder stored = storedReadOrder(std::move(order));
    const auto lit = readElements(*stored, limit);
    QCOMPARE(lit, expected);
    if (limit >= 0)
        QVERIFY2(qint64(lit.capacity()) <= limit, qPrintable(QString::number(lit.capacity())));
}

QTEST_APPLESS_MAIN(TestReadOrder)
#include "tst_readordermap.moc"
