// SPDX-License-Identifier: GPL-3.0-or-later
// RowBitmap's rank, select, count and next against a plain count of the rows set, over random
// bitmaps of every density and of sizes on and off the 64-row words and 512-row rank samples.
// Its bit-counting functions are built twice (with the POPCNT instruction and without) and one
// is chosen when the library loads: this checks the one this machine runs.
#include "ui/model/rowsplanmap.h"

#include <QTest>

#include <random>
#include <string>
#include <vector>

using namespace ss::ui;

class TestRowBitmap : public QObject
{
    Q_OBJECT
private slots:
    void countsAsAPlainCountDoes_data();
    void countsAsAPlainCountDoes();
};

void TestRowBitmap::countsAsAPlainCountDoes_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<double>("density"); // the chance that a row is set
    for (const qint64 rows : {1, 63, 64, 65, 511, 512, 513, 5000, 20011})
        for (const double density : {0.0, 0.01, 0.5, 0.97, 1.0})
            QTest::newRow((std::to_string(rows) + " rows, " + std::to_string(density)).c_str())
                << rows << density;
}

void TestRowBitmap::countsAsAPlainCountDoes()
{
    QFETCH(qint64, rows);
    QFETCH(double, density);
    std::mt19937_64 rng(std::uint64_t(rows) * 1000 + std::uint64_t(density * 100));
    std::bernoulli_distribution isSet(density);
    RowBitmap bitmap(rows);
    std::vector<bool> plain(std::size_t(rows), false);
    for (qint64 r = 0; r < rows; ++r)
        if (isSet(rng)) {
            QVERIFY(bitmap.set(r));
            QVERIFY(!bitmap.set(r)); // set already
            plain[std::size_t(r)] = true;
        }
    bitmap.finish();

    // before[r]: the rows set before r.
    std::vector<qint64> before(std::size_t(rows) + 1, 0);
    std::vector<qint64> setRows;
    for (qint64 r = 0; r < rows; ++r) {
        before[std::size_t(r) + 1] = before[std::size_t(r)] + plain[std::size_t(r)];
        if (plain[std::size_t(r)]) setRows.push_back(r);
    }
    for (qint64 r = 0; r < rows; ++r) {
        QCOMPARE(bitmap.has(r), bool(plain[std::size_t(r)]));
        QCOMPARE(bitmap.rank(r), before[std::size_t(r)]);
    }
    for (std::size_t k = 0; k < setRows.size(); ++k)
        QCOMPARE(bitmap.select(qint64(k)), setRows[k]);
    std::uniform_int_distribution<qint64> row(0, rows);
    for (int i = 0; i < 2000; ++i) {
        qint64 from = row(rng), to = row(rng);
        if (from > to) std::swap(from, to);
        QCOMPARE(bitmap.count(from, to), before[std::size_t(to)] - before[std::size_t(from)]);
        qint64 next = from;
        while (next < to && !plain[std::size_t(next)])
            ++next;
        QCOMPARE(bitmap.next(from, to), next);
    }
}

QTEST_APPLESS_MAIN(TestRowBitmap)
#include "tst_rowbitmap.moc"
