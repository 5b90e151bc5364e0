// SPDX-License-Identifier: GPL-3.0-or-later
// The tensor view and its model: every model passes QAbstractItemModelTester; roles and change
// signals; the cell drawing and the heat map agree on where every element is (hover at an
// element's rect reports that element in both); pins, face dims, editing, stale read orders;
// and screenshots for a person to look at.
#include "core/mapped_file.h"
#include "npy_testing.h"
#include "protocol/npy.h"
#include "ui/model/stagetrace.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/views/valueformatter.h"

#include <QAbstractItemModelTester>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QThread>
#include <qcustomplot.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

Q_DECLARE_METATYPE(ss::Tensor)
Q_DECLARE_METATYPE(ss::Shape)

using namespace ss;
using namespace ss::ui;

namespace {

Tensor arange(DType dtype, const Shape& shape)
{
    return makeFilled(dtype, shape, Fill::Arange, 0, Limits{});
}

Tensor doubles(const Shape& shape, const std::vector<double>& values)
{
    Tensor t = Tensor::empty(DType::Float64, shape);
    for (std::size_t i = 0; i < values.size(); ++i)
        t.setFromDouble(std::int64_t(i), values[i]);
    return t;
}

Tensor floats(const Shape& shape, const std::vector<double>& values)
{
    Tensor t = Tensor::empty(DType::Float32, shape);
    for (std::size_t i = 0; i < values.size(); ++i)
        t.setFromDouble(std::int64_t(i), values[i]);
    return t;
}

// A tensor of a floating or complex dtype from (real, imaginary) pairs.
Tensor complexes(DType dtype, const Shape& shape, const std::vector<std::complex<double>>& values)
{
    Tensor t = Tensor::empty(dtype, shape);
    for (std::size_t i = 0; i < values.size(); ++i)
        t.setFromComplex(std::int64_t(i), values[i]);
    return t;
}

Tensor strings(const Shape& shape, const std::vector<std::string>& values)
{
    Tensor t = Tensor::empty(DType::String, shape);
    for (std::size_t i = 0; i < values.size(); ++i)
        t.data<std::string>()[i] = values[i];
    return t;
}

/// The order in which `reads` are read: reads[k] is read k-th (first read wins).
/// An order that says it rises with the index (an output read in its own order), so that a heat
/// map takes each block's first element as its first read: every element is read, those from
/// `jump` on a billion positions later than the ones before.
class RisingOrder final : public ReadOrderMap
{
public:
    RisingOrder(std::int64_t size, std::int64_t jump) : ReadOrderMap(size), m_jump(jump) {}
    ReadPosition at(std::int64_t flat) const override
    {
        return ReadPosition(flat + (flat >= m_jump ? kJump : 0));
    }
    std::int64_t bytes() const override { return 0; }
    bool ascending() const override { return true; }
    static constexpr std::int64_t kJump = 1'000'000'000;

private:
    std::int64_t m_jump;
};

ReadOrder orderOf(std::int64_t size, const std::vector<std::int64_t>& reads)
{
    StoredPositions order(std::size_t(size), -1);
    for (std::size_t k = 0; k < reads.size(); ++k)
        if (order[std::size_t(reads[k])] < 0) order[std::size_t(reads[k])] = StoredPosition(k);
    return storedReadOrder(std::move(order));
}

/// Heat-map pixels: the value map is grey (all channels within a few steps), the read-order
/// ramp is not.
bool isGrey(const QColor& c)
{
    return std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) <=
           12;
}

bool near(const QColor& a, const QColor& b)
{
    return std::abs(a.red() - b.red()) <= 12 && std::abs(a.green() - b.green()) <= 12 &&
           std::abs(a.blue() - b.blue()) <= 12;
}

/// The light theme's heat-map colour of an element read at ramp position `t` whose value sits
/// at `v` of the value range: the ramp at 235/255 opacity over the grey.
QColor expectedHeat(double t, double v)
{
    const QColor low(0xf4, 0xf4, 0xf4), high(0x55, 0x57, 0x5b);
    const QColor ramp = readOrderColor(t);
    const double a = 235.0 / 255.0;
    const auto channel = [&](int r, int l, int h) {
        return int(std::lround(a * r + (1 - a) * (l + v * (h - l))));
    };
    return QColor(channel(ramp.red(), low.red(), high.red()),
                  channel(ramp.green(), low.green(), high.green()),
                  channel(ramp.blue(), low.blue(), high.blue()));
}

QString screenshotDir()
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

/// Every element the model reports as selected, in read order.
std::vector<std::int64_t> selectedInReadOrder(const TensorModel& model)
{
    std::vector<std::pair<qint64, std::int64_t>> found;
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex i = model.index(r, c);
            if (i.data(TensorModel::SelectedRole).toBool())
                found.emplace_back(i.data(TensorModel::ReadOrderRole).toLongLong(),
                                   i.data(TensorModel::FlatIndexRole).toLongLong());
        }
    std::sort(found.begin(), found.end());
    std::vector<std::int64_t> flats;
    for (const auto& [order, flat] : found)
        flats.push_back(flat);
    return flats;
}

/// Counts the paint events a widget gets.
class PaintCounter : public QObject
{
public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* event) override
    {
        paints += event->type() == QEvent::Paint;
        return false;
    }
};

} // namespace

class TestTensorView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();

    void modelPassesTester_data();
    void modelPassesTester();
    void displayText_data();
    void displayText();
    void rolesAndHeaders();
    void readOrderEmitsDataChanged();
    void outlineEmitsDataChangedAroundChanges();
    void modelReportsEditsOnlyWhenEditable();

    void heatMapAtThreshold_data();
    void heatMapAtThreshold();
    void hoverReportsTheElementUnderTheMouse_data();
    void hoverReportsTheElementUnderTheMouse();
    void elementAtAndElementRectAreInverses_data();
    void elementAtAndElementRectAreInverses();
    void selectionMapMarksExactlyTheSelected();
    void sparseSelectionSurvivesDownsampling();
    void resizesInOnePassReplotOnce();
    void aTitleIsLaidOutOncePerText();
    void aNewShapeIsSampledOnceAtItsNewSize();
    void aReplotPaintsWithTheWindowsNextPaint();
    void settledOnceTheNewSamplesAreDrawn();
    void anOrderDuringASamplingIsSampledAfterIt();
    void greyScaleSpansTheTensorsFiniteValues_data();
    void greyScaleSpansTheTensorsFiniteValues();
    void risingOrderDrawsAsItsStoredCopy();
    void contiguousRowsDrawAsTheirTranspose_data();
    void contiguousRowsDrawAsTheirTranspose();
    void pinsJumpToShowTheSelection();
    void scrollsToTheFirstSelectedFace();
    void outlineJumpsToItsElement();
    void faceDimsChooseRowsAndColumns();
    void focusDimsLightTheirLabels();
    void legendFitsNarrowViews_data();
    void legendFitsNarrowViews();
    void zeroSizeShowsAnEmptyState();
    void noTensorShowsAnEmptyState();
    void valueStyleOfAMappedFileReadsOnlyItsSamples();
    void editorReportsEnterAndIgnoresEscape();
    void staleReadOrderIsNeverShown();
    void tenMillionElementsSetUpWithoutBlocking();
    void everyInteractiveWidgetHasAnAccessibleName();
    void screenshots();
};

void TestTensorView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    applyTheme(*qApp, Theme::Light);
}

void TestTensorView::modelPassesTester_data()
{
    QTest::addColumn<Tensor>("tensor");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::newRow("rank 0") << Tensor::scalar(DType::Int32, 7) << 1 << 1;
    QTest::newRow("rank 1") << arange(DType::Int64, {5}) << 1 << 5;
    QTest::newRow("rank 3") << arange(DType::Int32, {3, 2, 4}) << 6 << 4;
    QTest::newRow("zero-size middle dim") << arange(DType::Int32, {3, 0, 2}) << 0 << 2;
    QTest::newRow("zero-size last dim") << arange(DType::Int32, {2, 0}) << 2 << 0;
    QTest::newRow("empty vector") << arange(DType::Float32, {0}) << 1 << 0;
    QTest::newRow("strings") << strings({2, 2}, {"a", "", "bc", "d e"}) << 2 << 2;
    QTest::newRow("floats with nan and inf")
        << doubles({2, 2}, {0.5, std::nan(""), HUGE_VAL, -HUGE_VAL}) << 2 << 2;
    QTest::newRow("rank 8") << arange(DType::UInt8, {2, 1, 2, 1, 2, 1, 2, 3}) << 16 << 3;
}

void TestTensorView::modelPassesTester()
{
    QFETCH(Tensor, tensor);
    QFETCH(int, rows);
    QFETCH(int, cols);
    TensorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTensor(tensor);
    QCOMPARE(model.rowCount(), rows);
    QCOMPARE(model.columnCount(), cols);
    std::vector<std::int64_t> reads;
    for (std::int64_t i = tensor.size() - 1; i >= 0; i -= 2)
        reads.push_back(i);
    model.setReadOrder(orderOf(tensor.size(), reads));
    model.setOutlined(reads);
    model.setEditable(true);
    model.setOutlined({});
    model.setReadOrder(nullptr);
    model.setTensor(arange(DType::Int32, {2, 3}));
    QCOMPARE(model.rowCount(), 2);
}

void TestTensorView::displayText_data()
{
    QTest::addColumn<Tensor>("tensor");
    QTest::addColumn<QStringList>("display");
    QTest::addColumn<QStringList>("edit");
    QTest::newRow("int32") << arange(DType::Int32, {3}) << QStringList{"0", "1", "2"}
                           << QStringList{"0", "1", "2"};
    QTest::newRow("int64 extremes")
        << Tensor::fromInts(DType::Int64, {2}, {std::numeric_limits<std::int64_t>::min(), -1})
        << QStringList{"-9223372036854775808", "-1"} << QStringList{"-9223372036854775808", "-1"};
    QTest::newRow("bool") << arange(DType::Bool, {2}) << QStringList{"False", "True"}
                          << QStringList{"False", "True"};
    QTest::newRow("whole floats read like NumPy")
        << doubles({3}, {0, 1, -2}) << QStringList{"0.", "1.", "-2."}
        << QStringList{"0", "1", "-2"};
    QTest::newRow("negative zero keeps its sign")
        << doubles({2}, {-0.0, 1}) << QStringList{"-0.", "1."} << QStringList{"-0", "1"};
    QTest::newRow("negative zero in fixed point")
        << floats({2}, {-0.0, 2.5}) << QStringList{"-0.0", "2.5"} << QStringList{"-0", "2.5"};
    QTest::newRow("complex with a negative zero real part")
        << complexes(DType::Complex128, {1}, {{-0.0, 1}}) << QStringList{"-0.+1.j"}
        << QStringList{"-0+1j"};
    QTest::newRow("fixed point, digits as needed")
        << doubles({3}, {0.5, 1.25, -3}) << QStringList{"0.50", "1.25", "-3.00"}
        << QStringList{"0.5", "1.25", "-3"};
    QTest::newRow("float32 edits at its own precision")
        << floats({2}, {0.1, 2.5}) << QStringList{"0.1", "2.5"} << QStringList{"0.1", "2.5"};
    QTest::newRow("large values in scientific form")
        << doubles({2}, {1.5e9, 2}) << QStringList{"1.500e+09", "2.000e+00"}
        << QStringList{"1.5e+09", "2"};
    QTest::newRow("nan and infinities")
        << doubles({3}, {std::nan(""), HUGE_VAL, -HUGE_VAL}) << QStringList{"nan", "inf", "-inf"}
        << QStringList{"nan", "inf", "-inf"};
    QTest::newRow("float16 as its shortest decimals")
        << complexes(DType::Float16, {3}, {0.1, 2.5, 65504}) << QStringList{"0.1", "2.5", "65500.0"}
        << QStringList{"0.1", "2.5", "65500"};
    QTest::newRow("bfloat16 as its shortest decimals")
        << complexes(DType::BFloat16, {2}, {1.1, -3}) << QStringList{"1.1", "-3.0"}
        << QStringList{"1.1", "-3"};
    QTest::newRow("complex64 as a+bj")
        << complexes(DType::Complex64, {2}, {{1.5, -2}, {0.1, 1}})
        << QStringList{"1.5-2.0j", "0.1+1.0j"} << QStringList{"1.5-2j", "0.1+1j"};
    QTest::newRow("complex128 whole parts")
        << complexes(DType::Complex128, {2}, {{1, 2}, {-3, -0.0}})
        << QStringList{"1.+2.j", "-3.-0.j"} << QStringList{"1+2j", "-3-0j"};
    QTest::newRow("complex nan and infinities")
        << complexes(DType::Complex128, {1}, {{std::nan(""), -HUGE_VAL}}) << QStringList{"nan-infj"}
        << QStringList{"nan-infj"};
    QTest::newRow("uint64 above int64") <<
        [] {
            Tensor t = Tensor::empty(DType::UInt64, {1});
            t.data<std::uint64_t>()[0] = std::numeric_limits<std::uint64_t>::max();
            return t;
        }() << QStringList{"18446744073709551615"}
                                        << QStringList{"18446744073709551615"};
    QTest::newRow("strings quoted, edited bare")
        << strings({2}, {"ab", ""}) << QStringList{"'ab'", "''"} << QStringList{"ab", ""};
    // As NumPy prints them: Python's repr, and bytes (a '|S' file's) with b and \x past ASCII.
    QTest::newRow("strings with escapes")
        << strings({2}, {"a\nb", "it's"}) << QStringList{"'a\\nb'", "\"it's\""}
        << QStringList{"a\nb", "it's"};
    Tensor bytes = strings({2}, {"ab", "\xc3\xa9"});
    bytes.setHoldsBytes(true);
    QTest::newRow("bytes") << bytes << QStringList{"b'ab'", "b'\\xc3\\xa9'"}
                           << QStringList{"ab", "\u00e9"};
}

void TestTensorView::displayText()
{
    QFETCH(Tensor, tensor);
    QFETCH(QStringList, display);
    QFETCH(QStringList, edit);
    TensorModel model;
    model.setTensor(tensor);
    for (int i = 0; i < display.size(); ++i) {
        const QModelIndex index = model.indexOfFlat(i);
        QCOMPARE(index.data(Qt::DisplayRole).toString(), display[i]);
        QCOMPARE(index.data(Qt::EditRole).toString(), edit[i]);
    }
}

void TestTensorView::rolesAndHeaders()
{
    TensorModel model;
    model.setTensor(arange(DType::Int32, {2, 3, 4}));
    model.setReadOrder(orderOf(24, {23, 5, 0}));
    model.setOutlined({5});
    const QModelIndex i = model.indexOfFlat(5); // [0, 1, 1]
    QCOMPARE(i.row(), 1);
    QCOMPARE(i.column(), 1);
    QCOMPARE(model.flatOf(i), 5);
    QCOMPARE(i.data(TensorModel::FlatIndexRole).toLongLong(), 5);
    QCOMPARE(i.data(TensorModel::ReadOrderRole).toLongLong(), 1);
    QCOMPARE(i.data(TensorModel::SelectedRole).toBool(), true);
    QCOMPARE(i.data(TensorModel::OutlinedRole).toBool(), true);
    QCOMPARE(i.data(TensorModel::CoordinatesRole).value<QList<qint64>>(), (QList<qint64>{0, 1, 1}));
    QCOMPARE(i.data(Qt::AccessibleDescriptionRole).toString(),
             QStringLiteral("[0, 1, 1], read at position 1, outlined"));
    const QModelIndex j = model.indexOfFlat(6);
    QCOMPARE(j.data(TensorModel::ReadOrderRole).toLongLong(), -1);
    QCOMPARE(j.data(TensorModel::SelectedRole).toBool(), false);
    QCOMPARE(model.headerData(5, Qt::Vertical, Qt::DisplayRole).toString(),
             QStringLiteral("[1, 2, :]"));
    QCOMPARE(model.headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("[..., 3]"));
    QCOMPARE(selectedInReadOrder(model), (std::vector<std::int64_t>{23, 5, 0}));
    QVERIFY(!(model.flags(i) & Qt::ItemIsEditable));
    model.setEditable(true);
    QVERIFY(model.flags(i) & Qt::ItemIsEditable);
    QVERIFY(!model.indexOfFlat(24).isValid());
}

void TestTensorView::readOrderEmitsDataChanged()
{
    TensorModel model;
    model.setTensor(arange(DType::Int32, {3, 4}));
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    model.setReadOrder(orderOf(12, {3, 2, 1}));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toModelIndex(), model.index(0, 0));
    QCOMPARE(spy[0][1].toModelIndex(), model.index(2, 3));
    QVERIFY(spy[0][2].value<QList<int>>().contains(TensorModel::ReadOrderRole));
    // An order for another element count cannot belong to this tensor: it is refused.
    model.setReadOrder(orderOf(5, {1}));
    QVERIFY(!model.readOrder());
    QCOMPARE(spy.count(), 2);
}

void TestTensorView::outlineEmitsDataChangedAroundChanges()
{
    TensorModel model;
    model.setTensor(arange(DType::Int32, {4, 5}));
    model.setOutlined({6}); // [1, 1]
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    model.setOutlined({6, 18}); // adds [3, 3]
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toModelIndex(), model.index(3, 3));
    QCOMPARE(spy[0][1].toModelIndex(), model.index(3, 3));
    model.setOutlined({2}); // removes [1, 1] and [3, 3], adds [0, 2]
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][0].toModelIndex(), model.index(0, 1));
    QCOMPARE(spy[1][1].toModelIndex(), model.index(3, 3));
    QVERIFY(spy[1][2].value<QList<int>>().contains(TensorModel::OutlinedRole));
    model.setOutlined({2});
    QCOMPARE(spy.count(), 2); // no change, no signal
    QCOMPARE(model.outlined(), (std::vector<std::int64_t>{2}));
}

void TestTensorView::modelReportsEditsOnlyWhenEditable()
{
    TensorModel model;
    model.setTensor(arange(DType::Int32, {2, 2}));
    QSignalSpy spy(&model, &TensorModel::elementEdited);
    QVERIFY(!model.setData(model.index(1, 0), QStringLiteral("9"), Qt::EditRole));
    model.setEditable(true);
    QVERIFY(model.setData(model.index(1, 0), QStringLiteral("9"), Qt::EditRole));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toLongLong(), 2);
    QCOMPARE(spy[0][1].toString(), QStringLiteral("9"));
    // The model only reports: the workbench owns the tensor.
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("2"));
}

void TestTensorView::heatMapAtThreshold_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<qint64>("threshold");
    QTest::addColumn<bool>("heat");
    QTest::newRow("100x100 at the default threshold") << Shape{100, 100} << qint64(10000) << false;
    QTest::newRow("100x101 past it") << Shape{100, 101} << qint64(10000) << true;
    QTest::newRow("faces count, not tensors") << Shape{50, 100, 100} << qint64(10000) << false;
    QTest::newRow("a long vector") << Shape{10001} << qint64(10000) << true;
    QTest::newRow("lowered threshold") << Shape{4, 5} << qint64(19) << true;
    QTest::newRow("exactly at a lowered threshold") << Shape{4, 5} << qint64(20) << false;
    QTest::newRow("no elements never heat") << Shape{0, 20000} << qint64(10) << false;
}

void TestTensorView::heatMapAtThreshold()
{
    QFETCH(Shape, shape);
    QFETCH(qint64, threshold);
    QFETCH(bool, heat);
    TensorView view;
    view.setHeatMapThreshold(threshold);
    view.setTensor(arange(DType::Int32, shape), QStringLiteral("x"));
    QCOMPARE(view.isHeatMap(), heat);
    QCOMPARE(view.viewport()->objectName() == QStringLiteral("heatMap"), heat);
    // Moving the threshold across the face switches the drawing back and forth.
    const std::int64_t cells =
        view.faceRowDim() < 0 ? shape.back() : shape[shape.size() - 2] * shape.back();
    if (cells > 0) {
        view.setHeatMapThreshold(heat ? cells : cells - 1);
        QCOMPARE(view.isHeatMap(), !heat);
    }
}

void TestTensorView::hoverReportsTheElementUnderTheMouse_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<qint64>("threshold");
    QTest::addColumn<bool>("heat");
    QTest::newRow("cells, rank 3") << Shape{3, 4, 5} << qint64(10000) << false;
    QTest::newRow("cells, rank 1") << Shape{7} << qint64(10000) << false;
    QTest::newRow("cells, rank 0") << Shape{} << qint64(10000) << false;
    QTest::newRow("heat map, 60x80") << Shape{60, 80} << qint64(100) << true;
    QTest::newRow("heat map, pinned rank 3") << Shape{3, 40, 50} << qint64(100) << true;
}

void TestTensorView::hoverReportsTheElementUnderTheMouse()
{
    QFETCH(Shape, shape);
    QFETCH(qint64, threshold);
    QFETCH(bool, heat);
    TensorView view;
    view.resize(900, 600);
    view.setHeatMapThreshold(threshold);
    const Tensor t = arange(DType::Int32, shape);
    view.setTensor(t, QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(view.isSettled());
    QCOMPARE(view.isHeatMap(), heat);
    QSignalSpy spy(&view, &TensorView::elementHovered);
    // In a pinned heat map only the pinned face is on show: its elements are t.size() / dim 0.
    const std::int64_t shown = heat && shape.size() == 3 ? t.size() / shape[0] : t.size();
    std::vector<std::int64_t> probes = {0, shown / 3, std::min(shown - 1, shown / 2 + 1),
                                        shown - 1};
    std::sort(probes.begin(), probes.end());
    probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
    for (std::int64_t flat : probes) {
        const QRect rect = view.elementRect(flat);
        QVERIFY2(!rect.isNull(), qPrintable(QStringLiteral("element %1 not visible").arg(flat)));
        QCOMPARE(view.elementAt(rect.center()), flat);
        QCOMPARE(view.elementAt(rect.topLeft()), flat);
        QCOMPARE(view.elementAt(rect.bottomRight()), flat);
        QWidget* vp = view.viewport();
        QTest::mouseMove(vp, vp->mapFrom(&view, rect.center()));
        QTRY_VERIFY(!spy.isEmpty());
        QCOMPARE(spy.last()[0].toLongLong(), flat);
    }
}

void TestTensorView::elementAtAndElementRectAreInverses_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<qint64>("threshold");
    QTest::addColumn<double>("zoom"); // the share of rows and columns in view (1: all)
    QTest::newRow("cells, rank 3") << Shape{3, 4, 5} << qint64(10000) << 1.0;
    QTest::newRow("cells, scrolled wide face") << Shape{6, 120} << qint64(10000) << 1.0;
    QTest::newRow("heat map, rows thinner than a pixel")
        << Shape{1500, 200} << qint64(10000) << 1.0;
    QTest::newRow("heat map, cells of a few pixels") << Shape{60, 80} << qint64(100) << 1.0;
    QTest::newRow("heat map, one column") << Shape{400, 1} << qint64(100) << 1.0;
    QTest::newRow("heat map, zoomed to a fractional range")
        << Shape{1500, 200} << qint64(10000) << 0.0137;
}

void TestTensorView::elementAtAndElementRectAreInverses()
{
    // Every point maps to the element whose rect holds it, and every point of an element's rect
    // maps back to that element, however many elements share a pixel.
    QFETCH(Shape, shape);
    QFETCH(qint64, threshold);
    QFETCH(double, zoom);
    TensorView view;
    view.resize(700, 520);
    view.setHeatMapThreshold(threshold);
    const Tensor t = arange(DType::Int32, shape);
    view.setTensor(t, QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    if (auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap")); view.isHeatMap()) {
        plot->xAxis2->setRange(3.3, 3.3 + zoom * double(shape.back()));
        plot->yAxis->setRange(17.6, 17.6 + zoom * double(shape.front()));
    }
    QTRY_VERIFY(view.isSettled());
    int mapped = 0;
    for (int y = 0; y < view.height(); ++y)
        for (int x = 0; x < view.width(); ++x) {
            const std::int64_t flat = view.elementAt({x, y});
            if (flat < 0) continue;
            ++mapped;
            QVERIFY2(view.elementRect(flat).contains(QPoint(x, y)),
                     qPrintable(QStringLiteral("(%1, %2) -> %3").arg(x).arg(y).arg(flat)));
        }
    QVERIFY(mapped > 0);
    int drawn = 0;
    for (std::int64_t flat = 0; flat < t.size(); ++flat) {
        const QRect r = view.elementRect(flat);
        if (r.isNull()) continue;
        ++drawn;
        for (const QPoint& p : {r.center(), r.topLeft(), r.bottomRight(), r.topRight()})
            QVERIFY2(view.elementAt(p) == flat,
                     qPrintable(QStringLiteral("%1 -> %2").arg(flat).arg(view.elementAt(p))));
    }
    QVERIFY(drawn > 0);
}

void TestTensorView::selectionMapMarksExactlyTheSelected()
{
    // A face smaller than the screen gets one sample per element: what is drawn at the centre
    // of each element's rect is the ramp over grey where it is read, and plain grey elsewhere.
    TensorView view;
    view.resize(900, 700);
    view.setHeatMapThreshold(100);
    view.setTensor(arange(DType::Float32, {20, 30}), QStringLiteral("x"));
    const std::vector<std::int64_t> reads = {599, 31, 32, 0, 450};
    view.setReadOrder(orderOf(600, reads));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(view.isSettled());
    QImage shot = view.grab().toImage();
    for (std::int64_t flat = 0; flat < 600; ++flat) {
        const auto it = std::find(reads.begin(), reads.end(), flat);
        const QColor drawn = shot.pixelColor(view.elementRect(flat).center());
        QVERIFY2(isGrey(drawn) == (it == reads.end()), qPrintable(QString::number(flat)));
        if (it != reads.end())
            QVERIFY2(near(drawn, expectedHeat(double(it - reads.begin()) / 4, flat / 599.0)),
                     qPrintable(QString::number(flat)));
    }
    // Values run from light (low) to dark (high).
    QVERIFY(shot.pixelColor(view.elementRect(1).center()).lightness() >
            shot.pixelColor(view.elementRect(598).center()).lightness());
    // With the op's whole read count as the scale, these five reads are early ones.
    view.setReadOrder(orderOf(600, reads), 8);
    QTRY_VERIFY(view.isSettled());
    QTRY_VERIFY(near(view.grab().toImage().pixelColor(view.elementRect(0).center()),
                     expectedHeat(3.0 / 8, 0)));
    shot = view.grab().toImage();
    QVERIFY(
        near(shot.pixelColor(view.elementRect(31).center()), expectedHeat(1.0 / 8, 31 / 599.0)));
}

void TestTensorView::risingOrderDrawsAsItsStoredCopy()
{
    // An order that rises with the index is sampled from each block's first element alone: drawn
    // exactly as the same positions stored per element, whose every element is read. The jump
    // falls inside a map cell's block (thousands of elements share a pixel), where the first
    // element, before it, decides the cell's colour.
    const Tensor values = arange(DType::Int32, {3000, 2000});
    const std::int64_t jump = 1234 * 2000 + 1717;
    const auto rising = std::make_shared<RisingOrder>(values.size(), jump);
    std::vector<ReadPosition> read(std::size_t(values.size()));
    rising->read(0, 1, values.size(), read.data());
    const ReadOrder stored = storedReadOrder(StoredPositions(read.begin(), read.end()));
    const std::int64_t last = values.size() - 1 + RisingOrder::kJump;
    TensorView views[2];
    const ReadOrder orders[2] = {rising, stored};
    for (int k = 0; k < 2; ++k) {
        views[k].resize(500, 400);
        views[k].setTensor(values, QStringLiteral("x"));
        views[k].setReadOrder(orders[k], ReadOrderSummary{values.size(), 0, last}, last);
        views[k].show();
        QVERIFY(QTest::qWaitForWindowExposed(&views[k]));
    }
    const auto shots = [&] {
        std::vector<QImage> images;
        for (TensorView& view : views) {
            [&] { QTRY_VERIFY(view.isSettled()); }();
            images.push_back(
                view.findChild<QCustomPlot*>(QStringLiteral("heatMap"))->grab().toImage());
        }
        return images;
    };
    QVERIFY(views[0].isHeatMap());
    std::vector<QImage> images = shots();
    QCOMPARE(images[0], images[1]);
    // Zoomed in on the jump, blocks start away from the face's first row and column.
    for (TensorView& view : views) {
        auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
        plot->xAxis2->setRange(1717 - 300.3, 1717 + 200.6);
        plot->yAxis->setRange(1234 - 150.2, 1234 + 250.9);
    }
    images = shots();
    QCOMPARE(images[0], images[1]);
}

void TestTensorView::contiguousRowsDrawAsTheirTranspose_data()
{
    QTest::addColumn<int>("dtype");
    QTest::addColumn<qint64>("rows");
    for (const DType type :
         {DType::Float32, DType::Float64, DType::Int32, DType::UInt8, DType::Bool})
        QTest::newRow(std::string(dtypeName(type)).c_str()) << int(type) << qint64(400);
    // A map of three rows is cut into stripes of blocks, each a part of the pool's work.
    QTest::newRow("float32, three rows") << int(DType::Float32) << qint64(3);
    QTest::newRow("int32, three rows") << int(DType::Int32) << qint64(3);
}

void TestTensorView::contiguousRowsDrawAsTheirTranspose()
{
    // A face whose rows are runs of consecutive elements is summed a column at a time over a
    // map cell's rows; one whose rows lie a dimension apart, element by element along each row.
    // The same matrix drawn both ways is the same picture: the blocks' means (whole numbers, so
    // no sum is rounded either way) and the grey scale's range of the finite values, with
    // infinities and NaNs among them, at several rows and columns per map cell.
    QFETCH(int, dtype);
    QFETCH(qint64, rows);
    const auto type = DType(dtype);
    const std::int64_t cols = 2600; // rows of several chunks of columns
    Tensor a = Tensor::empty(type, {rows, cols});
    Tensor b = Tensor::empty(type, {cols, rows});
    std::mt19937 rng(5);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
            double v = double(rng() % (type == DType::Bool ? 2 : 200));
            const bool floating = type == DType::Float32 || type == DType::Float64;
            if (floating && (r * cols + c) % 5021 == 7) v = HUGE_VAL;
            if (floating && (r * cols + c) % 7001 == 3) v = -HUGE_VAL;
            if (floating && (r * cols + c) % 9001 == 5) v = std::nan("");
            a.setFromDouble(r * cols + c, v);
            b.setFromDouble(c * rows + r, v);
        }
    TensorView views[2];
    views[0].setTensor(a, QStringLiteral("x"));
    views[1].setTensor(b, QStringLiteral("x"));
    views[1].setFaceDims(1, 0);
    std::vector<QImage> images;
    for (TensorView& view : views) {
        view.setHeatMapThreshold(100);
        view.resize(500, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.isHeatMap());
        QTRY_VERIFY(view.isSettled());
        // Inside the axes: their labels name different dimensions.
        auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
        images.push_back(plot->grab(plot->axisRect()->rect()).toImage());
    }
    QCOMPARE(images[0], images[1]);
}

void TestTensorView::sparseSelectionSurvivesDownsampling()
{
    TensorView view;
    view.resize(500, 400);
    view.setTensor(arange(DType::Int32, {3000, 2000}), QStringLiteral("x"));
    const std::int64_t only = 1234 * 2000 + 1717;
    view.setReadOrder(orderOf(6'000'000, {only}));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(view.isSettled());
    QVERIFY(view.isHeatMap());
    // Thousands of elements share a pixel; the one read element still lights one, where hover
    // finds it.
    auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
    const QImage shot = plot->grab().toImage();
    const QRect inside = plot->axisRect()->rect().adjusted(1, 1, -1, -1);
    std::vector<QPoint> lit;
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            if (!isGrey(shot.pixelColor(x, y))) lit.emplace_back(x, y);
    QVERIFY2(!lit.empty() && lit.size() <= 4, qPrintable(QString::number(lit.size())));
    // Its cell is far smaller than a pixel: where its centre falls.
    const QPoint at(int(plot->xAxis2->coordToPixel(1717)), int(plot->yAxis->coordToPixel(1234)));
    QVERIFY((lit.front() - at).manhattanLength() <= 4);
    // Zoomed in, the map is resampled at the new range and hover still finds the element.
    plot->xAxis2->setRange(1717 - 10, 1717 + 10);
    plot->yAxis->setRange(1234 - 8, 1234 + 8);
    QVERIFY(!view.isSettled());
    QTRY_VERIFY(view.isSettled());
    const QRect rect = view.elementRect(only);
    QVERIFY(rect.width() > 5);
    QCOMPARE(view.elementAt(rect.center()), only);
    QTRY_VERIFY(!isGrey(view.grab().toImage().pixelColor(rect.center())));
    QVERIFY(isGrey(view.grab().toImage().pixelColor(view.elementRect(only + 1).center())));
    // A new tensor of the same shape (the next evaluation) keeps the zoom.
    view.setTensor(arange(DType::Int32, {3000, 2000}), QStringLiteral("x"));
    QCOMPARE(plot->xAxis2->range(), QCPRange(1717 - 10, 1717 + 10));
    view.setTensor(arange(DType::Int32, {3000, 1000}), QStringLiteral("x"));
    QCOMPARE(plot->xAxis2->range(), QCPRange(-0.5, 999.5));
}

void TestTensorView::resizesInOnePassReplotOnce()
{
    // A splitter resizes every view each time one of its views comes or goes (a result with
    // more outputs than the last): the heat map is drawn again once, in the next pass of the
    // event loop and before the paint that shows its new size, not once per resize.
    QWidget window; // a child is resized at once (a window through the platform's events)
    window.resize(500, 700);
    auto& view = *new TensorView(&window);
    view.resize(500, 700);
    view.setTensor(arange(DType::Int32, {100, 101}), QStringLiteral("x"));
    view.setReadOrder(orderOf(10'100, {1717}));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(view.isSettled());
    QVERIFY(view.isHeatMap());
    auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
    QSignalSpy replots(plot, &QCustomPlot::afterReplot);
    for (int height : {650, 600, 550, 500})
        view.resize(500, height);
    QCOMPARE(replots.count(), 0);
    QCoreApplication::sendPostedEvents();
    QCOMPARE(replots.count(), 1);
    QTRY_VERIFY(view.isSettled());
    // Drawn at its new size: the element read is lit where hover finds it.
    const QRect rect = view.elementRect(1717);
    QVERIFY(!rect.isNull());
    QCOMPARE(view.elementAt(rect.center()), 1717);
    QTRY_VERIFY(!isGrey(view.grab().toImage().pixelColor(rect.center())));
}

void TestTensorView::aTitleIsLaidOutOncePerText()
{
    // A result's hand-over gives each view its tensor, then its order, and the splitter resizes
    // it: its rich-text title is measured once for the new text, not at each step.
    QWidget window;
    window.resize(500, 700);
    auto& view = *new TensorView(&window);
    view.resize(500, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto layouts = [] {
        int n = 0;
        for (const stagetrace::Mark& m : stagetrace::take())
            n += std::strcmp(m.stage, "gui: view title laid out") == 0;
        return n;
    };
    stagetrace::enable(true);
    (void)stagetrace::take();
    view.setTensor(arange(DType::Int32, {100, 101}), QStringLiteral("x"));
    view.setReadOrder(orderOf(10'100, {1717}));
    for (int height : {650, 600})
        view.resize(500, height);
    const int once = layouts();
    view.setStale(QStringLiteral("old")); // a new text
    const int again = layouts();
    stagetrace::enable(false);
    QCOMPARE(once, 1);
    QCOMPARE(again, 1);
    QTRY_VERIFY(view.isSettled());
}

void TestTensorView::aNewShapeIsSampledOnceAtItsNewSize()
{
    // one_hot along axis 0 turns a (1000, 10) result into (10, 10, 100): the view shows its face
    // box, so the heat map shrinks. It samples the new face once, at its new size, and computes
    // the value range over the whole tensor once (not again after the relayout).
    QWidget window;
    window.resize(500, 700);
    auto& view = *new TensorView(&window);
    view.resize(500, 700);
    view.setHeatMapThreshold(100);
    view.setTensor(arange(DType::Int32, {1000, 10}), QStringLiteral("x"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(view.isSettled());
    QVERIFY(view.isHeatMap());
    auto count = [](const std::vector<stagetrace::Mark>& marks, const char* stage) {
        return int(std::count_if(marks.begin(), marks.end(), [&](const stagetrace::Mark& m) {
            return std::strcmp(m.stage, stage) == 0;
        }));
    };
    stagetrace::enable(true);
    (void)stagetrace::take();
    view.setTensor(arange(DType::Int32, {10, 10, 100}), QStringLiteral("x"));
    view.setReadOrder(orderOf(10'000, {1717}));
    QTRY_VERIFY(view.isSettled());
    QTest::qWait(50); // a resampling after the relayout would have started by now
    QVERIFY(view.isSettled());
    const std::vector<stagetrace::Mark> marks = stagetrace::take();
    stagetrace::enable(false);
    QVERIFY(view.isHeatMap());
    QCOMPARE(count(marks, "gui: heat map sampling starts"), 1);
    QCOMPARE(count(marks, "worker: heat map value range"), 1);
    // Drawn at its new size: the element read is lit where hover finds it.
    const QRect rect = view.elementRect(1717);
    QVERIFY(!rect.isNull());
    QCOMPARE(view.elementAt(rect.center()), 1717);
    QTRY_VERIFY(!isGrey(view.grab().toImage().pixelColor(rect.center())));
}

// A 100 x 101 view drawn as a heat map, shown and settled: its plot, or null.
QCustomPlot* showSettledHeatMap(TensorView& view)
{
    view.resize(500, 400);
    view.setHeatMapThreshold(100);
    view.setTensor(arange(DType::Int32, {100, 101}), QStringLiteral("x"));
    view.show();
    if (!QTest::qWaitForWindowExposed(&view) ||
        !QTest::qWaitFor([&] { return view.isSettled(); }) || !view.isHeatMap())
        return nullptr;
    return view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
}

// A heat map's replot draws its buffers and asks for a paint: the window's next paint shows it
// with everything else that changed. (QCustomPlot painted the plot inside every replot: a third
// of the replots' time, 8 separate paints for dynamic_partition's 8 outputs in one pass.)
void TestTensorView::aReplotPaintsWithTheWindowsNextPaint()
{
    TensorView view;
    QCustomPlot* plot = showSettledHeatMap(view);
    QVERIFY(plot && plot->isVisible());
    PaintCounter counter;
    plot->installEventFilter(&counter);
    plot->replot();
    QCOMPARE(counter.paints, 0);
    QTRY_COMPARE(counter.paints, 1);
}

// A view says it has settled once its heat map has drawn its newest samples: applying them
// queues the replot that draws them, and a test or a screenshot that waits for the view would
// otherwise see the frame before.
void TestTensorView::settledOnceTheNewSamplesAreDrawn()
{
    TensorView view;
    QCustomPlot* plot = showSettledHeatMap(view);
    QVERIFY(plot);
    QSignalSpy replots(plot, &QCustomPlot::beforeReplot); // (`settled` may come in afterReplot)
    std::vector<int> replotsWhenSettled;
    connect(&view, &TensorView::settled, this,
            [&] { replotsWhenSettled.push_back(int(replots.count())); });
    view.setTensor(arange(DType::Int32, {100, 101}), QStringLiteral("x")); // new values
    QTRY_VERIFY(!replotsWhenSettled.empty());
    QVERIFY(replotsWhenSettled.front() >= 1); // not 0: the replot still queued
    QVERIFY(view.isSettled());
}

void TestTensorView::anOrderDuringASamplingIsSampledAfterIt()
{
    // A read order that comes while the heat map samples new values (its summary not known when
    // the sampling started) is sampled once that sampling is applied: the result of the older
    // request does not take the newer one with it.
    QWidget window;
    window.resize(500, 700);
    auto& view = *new TensorView(&window);
    view.resize(500, 700);
    view.setTensor(arange(DType::Int32, {100, 101}), QStringLiteral("x"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(view.isSettled());
    QVERIFY(view.isHeatMap());
    stagetrace::enable(true);
    (void)stagetrace::take();
    view.setTensor(arange(DType::Int32, {100, 101}), QStringLiteral("x")); // new values
    QCoreApplication::sendPostedEvents();                                  // the sampling starts
    // It ends and posts its result; then the order comes.
    const auto sampled = [] {
        for (const stagetrace::Mark& m : stagetrace::take())
            if (std::strcmp(m.stage, "worker: heat map selection sampled") == 0) return true;
        return false;
    };
    QElapsedTimer waited;
    waited.start();
    while (!sampled() && waited.elapsed() < 5000)
        QThread::msleep(1);
    stagetrace::enable(false);
    QThread::msleep(20);
    view.setReadOrder(orderOf(10'100, {1717}));
    QTRY_VERIFY(view.isSettled());
    const QRect rect = view.elementRect(1717);
    QVERIFY(!rect.isNull());
    QVERIFY(!isGrey(view.grab().toImage().pixelColor(rect.center())));
}

void TestTensorView::greyScaleSpansTheTensorsFiniteValues_data()
{
    QTest::addColumn<DType>("dtype");
    for (const DType t : {DType::Float32, DType::Float64, DType::Int32, DType::UInt8})
        QTest::newRow(dtypeName(t).data()) << t;
}

void TestTensorView::greyScaleSpansTheTensorsFiniteValues()
{
    // The grey scale of a face that is not the whole tensor spans the whole tensor's finite
    // values: NaN and the infinities on the other face (at the start, the middle and the end,
    // where a pass over runs of elements has its remainder) are left out, so 0, 50 and 100 on
    // the face shown are its two ends and its middle.
    QFETCH(DType, dtype);
    const bool floating = dtype == DType::Float32 || dtype == DType::Float64;
    std::vector<double> values(200, 50.0);
    values[10] = 0;
    values[60] = 100;
    if (floating) {
        values[100] = std::numeric_limits<double>::quiet_NaN();
        values[150] = std::numeric_limits<double>::infinity();
        values[199] = -std::numeric_limits<double>::infinity();
    }
    Tensor t = Tensor::empty(dtype, {2, 2, 50});
    for (std::size_t i = 0; i < values.size(); ++i)
        t.setFromDouble(std::int64_t(i), values[i]);
    TensorView view;
    view.resize(600, 500);
    view.setHeatMapThreshold(50);
    view.setTensor(t, QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(view.isSettled());
    QVERIFY(view.isHeatMap());
    const QImage shot = view.grab().toImage();
    const auto grey = [&](std::int64_t flat) {
        const QRect rect = view.elementRect(flat);
        return rect.isNull() ? -1 : shot.pixelColor(rect.center()).lightness();
    };
    const int low = grey(10), high = grey(60), middle = grey(30);
    QVERIFY2(low >= 0 && high >= 0 && middle >= 0, "face 0 is shown");
    QVERIFY2(std::abs(high - low) >= 100, qPrintable(QStringLiteral("%1 %2").arg(low).arg(high)));
    QVERIFY2(std::abs(2 * middle - low - high) <= 12,
             qPrintable(QStringLiteral("%1 %2 %3").arg(low).arg(middle).arg(high)));
}

void TestTensorView::pinsJumpToShowTheSelection()
{
    // The seed walk-through: foo[1, 2:4, None, ..., :-3:-1, :] on a 5x5x5x5x5x5 tensor reads
    // only inside foo[1, 2:4]; 625 faces are too many, so dims 0 and 1 are pinned.
    TensorView view;
    view.resize(900, 700);
    const Shape shape{5, 5, 5, 5, 5, 5};
    view.setTensor(arange(DType::Int32, shape), QStringLiteral("foo"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    using Pins = std::vector<std::pair<int, std::int64_t>>;
    QCOMPARE(view.pinnedDims(), (Pins{{0, 0}, {1, 0}}));
    std::vector<std::int64_t> reads;
    for (std::int64_t j = 2; j < 4; ++j)
        for (std::int64_t k = 0; k < 5; ++k)
            for (std::int64_t l = 0; l < 5; ++l)
                for (std::int64_t m : {4, 3})
                    for (std::int64_t n = 0; n < 5; ++n)
                        reads.push_back(ravelIndex({1, j, k, l, m, n}, shape));
    view.setReadOrder(orderOf(numElements(shape), reads));
    QCOMPARE(view.pinnedDims(), (Pins{{0, 1}, {1, 2}}));
    QCOMPARE(view.findChild<QSpinBox*>(QStringLiteral("pin0"))->value(), 1);
    QCOMPARE(view.findChild<QSpinBox*>(QStringLiteral("pin1"))->value(), 2);
    QCOMPARE(view.findChild<QLabel*>(QStringLiteral("pinCaption"))->text(),
             QStringLiteral("foo[1, 2, :, :, :, :]"));
    QCOMPARE(selectedInReadOrder(*view.model()), reads);
    // The first element read is drawn, and the pins move by hand without jumping back.
    QVERIFY(!view.elementRect(reads.front()).isNull());
    view.findChild<QSpinBox*>(QStringLiteral("pin1"))->setValue(4);
    QCOMPARE(view.pinnedDims(), (Pins{{0, 1}, {1, 4}}));
    QVERIFY(view.elementRect(reads.front()).isNull());
    QCOMPARE(view.elementAt(view.elementRect(ravelIndex({1, 4, 0, 0, 0, 0}, shape)).center()),
             ravelIndex({1, 4, 0, 0, 0, 0}, shape));
}

void TestTensorView::scrollsToTheFirstSelectedFace()
{
    // 20 faces in one column, only face 15 selected: the view scrolls so that face 15's panel
    // starts at the top (its title in view), not so that its first cell just peeks in.
    TensorView view;
    view.resize(260, 400);
    const Shape shape{20, 3, 4};
    view.setTensor(arange(DType::Int32, shape), QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    std::vector<std::int64_t> reads;
    for (std::int64_t i = 0; i < 12; ++i)
        reads.push_back(15 * 12 + i);
    view.setReadOrder(orderOf(numElements(shape), reads));
    const QRect first = view.elementRect(reads.front());
    const QRect top(view.viewport()->mapTo(&view, QPoint(0, 0)), view.viewport()->size());
    QVERIFY(!first.isNull());
    // Above the first cell: the margin, the face's title and its column labels, nothing more.
    QVERIFY2(first.top() - top.top() < 4 * first.height(),
             qPrintable(QStringLiteral("%1 px below the top").arg(first.top() - top.top())));
    QVERIFY(view.elementRect(reads.back()).isValid());
    QVERIFY(view.elementRect(14 * 12 + 11).isNull()); // face 14 scrolled away above

    // One face taller than the viewport: its top cannot go to the top, the selected row is shown.
    view.setTensor(arange(DType::Int32, {1000, 8}), QStringLiteral("x"));
    view.setReadOrder(orderOf(8000, {500 * 8, 500 * 8 + 1}));
    QVERIFY(!view.isHeatMap());
    QVERIFY(!view.elementRect(500 * 8).isNull());
}

void TestTensorView::outlineJumpsToItsElement()
{
    TensorView view;
    view.resize(600, 400);
    const Shape shape{200, 300}; // a heat map
    view.setTensor(arange(DType::Int32, shape), QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
    plot->xAxis2->setRange(-0.5, 19.5);
    plot->yAxis->setRange(-0.5, 19.5);
    QTRY_VERIFY(view.isSettled());
    const std::int64_t target = ravelIndex({150, 250}, shape);
    QVERIFY(view.elementRect(target).isNull());
    view.setOutlined({target});
    QVERIFY(!view.elementRect(target).isNull());
    QCOMPARE(view.model()->index(150, 250).data(TensorModel::OutlinedRole).toBool(), true);

    // In cells, an outline in a pinned-away face moves the pins to it.
    TensorView cells;
    cells.resize(600, 400);
    cells.show();
    QVERIFY(QTest::qWaitForWindowExposed(&cells));
    const Shape big{100, 30, 30};
    cells.setTensor(arange(DType::Int32, big), QStringLiteral("x"));
    QCOMPARE(cells.pinnedDims().size(), std::size_t(1));
    const std::int64_t far = ravelIndex({77, 29, 29}, big);
    cells.setOutlined({far});
    QCOMPARE(cells.pinnedDims().front().second, 77);
    QVERIFY(!cells.elementRect(far).isNull()); // scrolled into view
}

void TestTensorView::faceDimsChooseRowsAndColumns()
{
    TensorView view;
    view.resize(800, 600);
    const Shape shape{2, 3, 4};
    view.setTensor(arange(DType::Int32, shape), QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.faceRowDim(), 1);
    QCOMPARE(view.faceColDim(), 2);
    view.setFaceDims(0, 2);
    QCOMPARE(view.faceRowDim(), 0);
    QCOMPARE(view.faceColDim(), 2);
    QCOMPARE(view.findChild<QComboBox*>(QStringLiteral("faceRows"))->currentData().toInt(), 0);
    // Element [1, 2, 3] is in face x[:, 2, :] at row 1, column 3: same place both ways.
    const std::int64_t flat = ravelIndex({1, 2, 3}, shape);
    const std::int64_t below = ravelIndex({0, 2, 3}, shape);
    const QRect r = view.elementRect(flat);
    const QRect up = view.elementRect(below);
    QCOMPARE(r.left(), up.left());
    QCOMPARE(r.top(), up.bottom() + 1);
    QCOMPARE(view.elementAt(r.center()), flat);
    // Choosing the columns' dimension for the rows swaps the two.
    auto* rows = view.findChild<QComboBox*>(QStringLiteral("faceRows"));
    rows->setCurrentIndex(rows->findData(2));
    emit rows->activated(rows->currentIndex());
    QCOMPARE(view.faceRowDim(), 2);
    QCOMPARE(view.faceColDim(), 0);
    view.setFaceDims(1, 1); // not two dimensions: the default
    QCOMPARE(view.faceRowDim(), 1);
    QCOMPARE(view.faceColDim(), 2);
}

void TestTensorView::focusDimsLightTheirLabels()
{
    TensorView view;
    view.setTensor(arange(DType::Int32, {5, 6, 7}), QStringLiteral("x"));
    view.setFocusDims({1});
    QCOMPARE(view.focusDims(), std::vector<int>{1});
    const QString title = view.findChild<QLabel*>(QStringLiteral("title"))->text();
    QVERIFY2(title.contains(QStringLiteral("(5,&nbsp;<span style=\"background:")),
             qPrintable(title));
    QVERIFY(title.contains(QStringLiteral(">6</span>,&nbsp;7)")));
    view.setFocusDims({});
    QVERIFY(!view.findChild<QLabel*>(QStringLiteral("title"))
                 ->text()
                 .contains(QStringLiteral("span style")));
}

void TestTensorView::legendFitsNarrowViews_data()
{
    QTest::addColumn<int>("width");
    QTest::newRow("wide") << 860;
    QTest::newRow("half a window") << 330;
    QTest::newRow("narrow") << 200;
}

void TestTensorView::legendFitsNarrowViews()
{
    // "read first [ramp] read last" shortens to "first [ramp] last", then to the ramp alone: the
    // legend says the least width it can be drawn in, and always gets it.
    QFETCH(int, width);
    TensorView view;
    view.resize(width, 300);
    view.setTensor(arange(DType::Int32, {4, 6}), QStringLiteral("output 0"));
    view.setReadOrder(orderOf(24, {23, 0, 5}));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto* legend = view.findChild<QWidget*>(QStringLiteral("legend"));
    QVERIFY(legend->isVisible());
    const QSize least = legend->minimumSizeHint();
    QVERIFY(least.isValid() && least.width() > 0 && least.width() < legend->sizeHint().width());
    QVERIFY2(legend->width() >= least.width(), qPrintable(QString::number(legend->width())));
    QVERIFY(view.rect().contains(QRect(legend->mapTo(&view, QPoint(0, 0)), legend->size())));
    if (width >= 600) // room for the whole text
        QCOMPARE(legend->width(), legend->sizeHint().width());
}

void TestTensorView::zeroSizeShowsAnEmptyState()
{
    TensorView view;
    view.resize(400, 300);
    view.setTensor(arange(DType::Float32, {3, 0, 2}), QStringLiteral("x"));
    view.setReadOrder(orderOf(0, {}));
    view.setOutlined({0});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.isHeatMap());
    QCOMPARE(view.elementAt(QPoint(200, 150)), -1);
    QVERIFY(view.elementRect(0).isNull());
    QCOMPARE(view.model()->rowCount(), 0);
    QVERIFY(view.model()->outlined().empty());
    QVERIFY(!view.grab().isNull());
}

// A view given no tensor (Tensor(), which has no shape) draws nothing: laid out as a scalar, it
// was one cell, and its heat map sampled that cell from no buffer (a crash on a pool thread).
void TestTensorView::noTensorShowsAnEmptyState()
{
    TensorView view;
    view.resize(400, 300);
    view.setHeatMapThreshold(0);
    view.setTensor(arange(DType::Float32, {3, 4}), QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setTensor(Tensor(), QStringLiteral("x"));
    QVERIFY(!view.isHeatMap());
    QCOMPARE(view.model()->rowCount() * view.model()->columnCount(), 0);
    QCOMPARE(view.elementAt(QPoint(200, 150)), -1);
    QVERIFY(view.elementRect(0).isNull());
    QVERIFY(!view.grab().isNull());
    QTest::qWait(50); // any job the view started has run
}

// A cell's value style, read from 64 runs spread over a mapped file, brings in the pages it
// samples, not a readahead window (8 MiB here) around each: on the GUI thread, the views of a
// cold 16 GB file stalled it 62-68 ms.
void TestTensorView::valueStyleOfAMappedFileReadsOnlyItsSamples()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.npy"));
    const qint64 elements = qint64(1) << 26; // 256 MiB of float32, a hole on the disk
    QVERIFY(ss::testing::writeSparseNpy(path, "<f4", "(67108864,)", elements * 4));
    QVERIFY(ss::testing::evictFromPageCache(path)); // none of it in the page cache
    setNpyMapping(true);
    const Tensor t = readNpyFile(path.toStdString(), Limits{});
    setNpyMapping(false);
    QVERIFY(isMappedFile(t.raw()));
    const ValueFormatter style(t);
    QCOMPARE(style.text(0), QStringLiteral("0."));
    const auto cached = ss::testing::cachedPages(t.raw(), elements * 4);
    // 64 runs of 1 KiB: a page or two each.
    QVERIFY2(cached >= 0 && cached <= 4 * 64,
             qPrintable(QStringLiteral("%1 pages read").arg(cached)));
}

void TestTensorView::editorReportsEnterAndIgnoresEscape()
{
    TensorView view;
    view.resize(500, 300);
    view.setTensor(arange(DType::Int32, {3, 4}), QStringLiteral("x"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(&view, &TensorView::elementEdited);
    QWidget* vp = view.viewport();
    const QPoint at = vp->mapFrom(&view, view.elementRect(6).center());
    // QTest leaves the button down after a widget double-click: release it as a user would.
    QTest::mouseDClick(vp, Qt::LeftButton, {}, at);
    QTest::mouseRelease(vp, Qt::LeftButton, {}, at);
    auto* editor = view.findChild<QWidget*>(QStringLiteral("canvas"))
                       ->findChild<QLineEdit*>(QStringLiteral("cellEditor"));
    QVERIFY(!editor->isVisible()); // read-only views do not edit
    view.setEditable(true);
    QTest::mouseDClick(vp, Qt::LeftButton, {}, at);
    QVERIFY(editor->isVisible());
    QTest::mouseRelease(vp, Qt::LeftButton, {}, at);
    QVERIFY(editor->isVisible());
    QCOMPARE(editor->text(), QStringLiteral("6"));
    QTest::keyClicks(editor, QStringLiteral("42"));
    QTest::keyClick(editor, Qt::Key_Return);
    QVERIFY(!editor->isVisible());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toLongLong(), 6);
    QCOMPARE(spy[0][1].toString(), QStringLiteral("42"));
    // Typing on the current cell starts an edit with that character; Esc drops it.
    QTest::keyClick(view.findChild<QWidget*>(QStringLiteral("canvas")), Qt::Key_Right);
    QTest::keyClick(view.findChild<QWidget*>(QStringLiteral("canvas")), Qt::Key_7);
    QVERIFY(editor->isVisible());
    QCOMPARE(editor->text(), QStringLiteral("7"));
    QTest::keyClick(editor, Qt::Key_Escape);
    QVERIFY(!editor->isVisible());
    QCOMPARE(spy.count(), 1);
    // F2 edits the current cell, which the arrow moved to element 7.
    QTest::keyClick(view.findChild<QWidget*>(QStringLiteral("canvas")), Qt::Key_F2);
    QCOMPARE(editor->text(), QStringLiteral("7"));
    QTest::keyClick(editor, Qt::Key_Enter);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][0].toLongLong(), 7);
}

void TestTensorView::staleReadOrderIsNeverShown()
{
    // Large orders are summarised on the worker: only the newest one ever lands.
    TensorView view;
    const std::int64_t n = std::int64_t(1) << 21;
    view.setTensor(arange(DType::Int8, {n}), QStringLiteral("x"));
    const ReadOrder older = orderOf(n, {1, 2, 3});
    const ReadOrder newer = orderOf(n, {n - 1});
    QSignalSpy spy(view.model(), &QAbstractItemModel::dataChanged);
    view.setReadOrder(older);
    view.setReadOrder(newer);
    QVERIFY(!view.isSettled());
    QTRY_VERIFY(view.isSettled());
    // The checks below show that a stale order never lands, so there is no event to wait for:
    // each is a bounded wait in which a stale summary would have arrived from the worker.
    QTest::qWait(50);
    QCOMPARE(view.model()->readOrder(), newer);
    QCOMPARE(spy.count(), 1); // the older order never reached the model
    // A small order after a large one wins even though it is applied at once.
    view.setReadOrder(older);
    view.setReadOrder(nullptr);
    QTRY_VERIFY(view.isSettled());
    QTest::qWait(100);
    QVERIFY(!view.model()->readOrder());
    // So does a new tensor of another size: the order on its way cannot belong to it.
    view.setReadOrder(older);
    view.setTensor(arange(DType::Int8, {n + 1}), QStringLiteral("x"));
    QTRY_VERIFY(view.isSettled());
    QTest::qWait(100);
    QVERIFY(!view.model()->readOrder());
    QVERIFY(view.findChild<QWidget*>(QStringLiteral("legend"))->isHidden()); // nothing selected
    QCOMPARE(view.model()->columnCount(), int(n + 1));
}

void TestTensorView::tenMillionElementsSetUpWithoutBlocking()
{
    TensorView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const Shape shape{10, 1000, 1000};
    const Tensor t = makeFilled(DType::Float32, shape, Fill::Random, 7, Limits{});
    std::vector<std::int64_t> reads;
    for (std::int64_t i = t.size() - 1; i >= 0; i -= 3)
        reads.push_back(i);
    const ReadOrder order = orderOf(t.size(), reads);
    QElapsedTimer timer;
    timer.start();
    view.setTensor(t, QStringLiteral("x"));
    view.setReadOrder(order);
    const qint64 setupMs = timer.elapsed();
    qInfo("10^7 elements: setTensor + setReadOrder took %lld ms on the GUI thread", setupMs);
    // Everything proportional to the element count runs on the worker; generous for slow CI.
    QVERIFY2(setupMs < 250, qPrintable(QString::number(setupMs)));
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 20000);
    qInfo("10^7 elements: settled after %lld ms", timer.elapsed());
    QVERIFY(view.isHeatMap());
    QCOMPARE(view.pinnedDims().front().first, 0);
    QSignalSpy spy(&view, &TensorView::elementHovered);
    // Zoomed out, elements share pixels: hover the one at the middle of the face.
    QWidget* vp = view.viewport();
    auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("heatMap"));
    const std::int64_t flat = view.elementAt(plot->mapTo(&view, plot->axisRect()->rect().center()));
    const std::int64_t pinned = view.pinnedDims().front().second * 1'000'000;
    const std::int64_t row = (flat - pinned) / 1000, col = (flat - pinned) % 1000;
    QVERIFY2(std::abs(row - 500) <= 2 && std::abs(col - 500) <= 2,
             qPrintable(QString::number(flat)));
    const QRect rect = view.elementRect(flat);
    QVERIFY(!rect.isNull());
    QTest::mouseMove(vp, vp->mapFrom(&view, rect.center()));
    QTRY_VERIFY(!spy.isEmpty());
    QCOMPARE(spy.last()[0].toLongLong(), flat);
}

void TestTensorView::everyInteractiveWidgetHasAnAccessibleName()
{
    for (const Shape& shape : {Shape{5, 5, 5, 5, 5, 5}, Shape{300, 400}}) {
        TensorView view;
        view.setObjectName(QStringLiteral("inputView"));
        view.setTensor(arange(DType::Int32, shape), QStringLiteral("input"));
        view.setEditable(true);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QList<QWidget*> widgets = view.findChildren<QWidget*>();
        widgets << &view;
        int interactive = 0;
        for (QWidget* w : widgets) {
            // A spin box's line edit is part of the spin box, which carries the name.
            if (!w->isVisible() || w->focusPolicy() == Qt::NoFocus ||
                qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
                continue;
            ++interactive;
            QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
            QVERIFY(iface);
            QVERIFY2(!iface->text(QAccessible::Name).isEmpty(),
                     qPrintable(QStringLiteral("%1 (%2) has no accessible name")
                                    .arg(w->objectName(), w->metaObject()->className())));
            QVERIFY2(!w->objectName().isEmpty(), w->metaObject()->className());
        }
        QVERIFY(interactive >= 1);
    }
}

void TestTensorView::screenshots()
{
    struct Shot
    {
        QString name;
        Tensor tensor;
        std::vector<std::int64_t> reads;
        std::vector<std::int64_t> outlined;
        std::vector<int> focus;
        Theme theme = Theme::Light;
    };
    const Shape six{5, 5, 5, 5, 5, 5};
    std::vector<std::int64_t> walk;
    for (std::int64_t j = 2; j < 4; ++j)
        for (std::int64_t k = 0; k < 5; ++k)
            for (std::int64_t l = 0; l < 5; ++l)
                for (std::int64_t m : {4, 3})
                    for (std::int64_t n = 0; n < 5; ++n)
                        walk.push_back(ravelIndex({1, j, k, l, m, n}, six));
    std::vector<std::int64_t> reversed;
    for (std::int64_t i = 17; i >= 0; i -= 2)
        reversed.push_back(i);
    std::vector<std::int64_t> stripes;
    for (std::int64_t r = 0; r < 2000; r += 3)
        for (std::int64_t c = 1999; c >= 0; c -= 50)
            stripes.push_back(r * 2000 + c);
    const std::vector<Shot> shots = {
        {"seed_3x2x3_reversed", arange(DType::Int32, {3, 2, 3}), reversed, {5}, {}},
        {"seed_5x5x5x5x5x5_walk", arange(DType::Int32, six), walk, {}, {4}},
        {"floats_dark",
         doubles({4, 5}, {0.5, -1.25, std::nan(""), HUGE_VAL, 2,  3,  4,  5,  6,  7,
                          8,   9,     10,           11,       12, 13, 14, 15, 16, 17}),
         {19, 0, 7, 13},
         {7},
         {0},
         Theme::Dark},
        {"one_element", Tensor::scalar(DType::Float64, 3.5), {0}, {}, {}},
        {"zero_size", arange(DType::Int32, {3, 0, 2}), {}, {}, {}},
        {"rank_8", arange(DType::UInt8, {2, 2, 2, 2, 2, 2, 2, 2}), {255, 128, 3}, {3}, {2}},
        {"strings",
         strings({2, 3}, {"alpha", "", "a rather long string value", "d", "e", "f"}),
         {2, 4},
         {},
         {}},
        {"heat_2000x2000", arange(DType::Int32, {2000, 2000}), stripes, {2000 * 1000 + 1000}, {0}},
    };
    for (const Shot& shot : shots) {
        applyTheme(*qApp, shot.theme);
        TensorView view;
        view.resize(860, 560);
        view.setTensor(shot.tensor, QStringLiteral("input"));
        if (!shot.reads.empty() || shot.tensor.size() == 0)
            view.setReadOrder(orderOf(shot.tensor.size(), shot.reads));
        view.setOutlined(shot.outlined);
        view.setFocusDims(shot.focus);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Settled twice with the event loop run between, as the automation's wait has it: a
        // result that lands sets off zero-delay work (the colour fit) that settles again when
        // done.
        QTRY_VERIFY(view.isSettled());
        QCoreApplication::processEvents();
        QTRY_VERIFY(view.isSettled());
        const QString path =
            screenshotDir() + QStringLiteral("/tensorview_") + shot.name + QStringLiteral(".png");
        QVERIFY2(view.grab().save(path), qPrintable(path));
    }
    applyTheme(*qApp, Theme::Light);
}

QTEST_MAIN(TestTensorView)
#include "tst_tensorview.moc"
