// SPDX-License-Identifier: GPL-3.0-or-later
// TensorView: a header (name, dtype, shape, read-order legend), a bar with the face dims and the
// pinned outer indices, and one of two drawings: cells (TensorCanvas) or a heat map (HeatMap).
#include "ui/views/tensorview.h"

#include "core/executor.h"
#include "ui/model/jobtracker.h"
#include "ui/model/numpyliteral.h"
#include "ui/model/stagetrace.h"
#include "ui/views/heatmap.h"
#include "ui/views/palette.h"
#include "ui/views/plaintext.h"
#include "ui/views/tensoraccessible.h"
#include "ui/views/tensorcanvas.h"
#include "ui/views/viewstate.h"

#include <QAccessible>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QLocale>
#include <QPainter>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStringList>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace ss::ui {

namespace {

constexpr std::int64_t kDefaultHeatMapThreshold = 10000;
/// Past this a face of cells would be wider or taller than the pixel coordinates can say.
constexpr std::int64_t kMaxHeatMapThreshold = std::int64_t(1) << 20;
/// At most this many faces, and this many cells in all, are drawn at once; the outermost
/// dimensions are pinned to one index until both hold.
constexpr std::int64_t kMaxFaces = 64;
constexpr std::int64_t kMaxShownCells = 16384;
/// Read orders up to this size are summarised on the GUI thread (well under a millisecond);
/// larger ones on the worker.
constexpr std::size_t kSyncStatsLimit = std::size_t(1) << 18;
/// How many outlined elements are checked for being shown before pinning to the first.
constexpr std::size_t kOutlineProbe = 1024;

/// "read first [ramp] read last": the ramp the selected cells are coloured with. A narrow view
/// gets "first [ramp] last", then the ramp alone (its tooltip still says which end is which).
class Legend : public QWidget
{
public:
    explicit Legend(QWidget* parent) : QWidget(parent)
    {
        setObjectName(QStringLiteral("legend"));
        setAccessibleName(tr("Read order legend"));
        setAccessibleDescription(tr("Selected elements are coloured from dark violet (read "
                                    "first) to yellow (read last)."));
        setToolTip(accessibleDescription());
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    }
    /// Fitted to the cells on screen: the ramp runs from read position `fit->first` to
    /// `fit->second` of the `total` elements read (numbered from 1 for people).
    void setFit(std::optional<std::pair<std::int64_t, std::int64_t>> fit, std::int64_t total)
    {
        m_fit = fit;
        setToolTip(fit ? tr("Colours fitted to the cells on screen: dark violet is the %L1th "
                            "element read, yellow the %L2th (of %L3 read in all). View > Fit "
                            "Colours to the Screen turns this off.")
                             .arg(fit->first + 1)
                             .arg(fit->second + 1)
                             .arg(total)
                       : accessibleDescription());
        update(); // same size: the fitted labels take the shorter variants when they are wider
    }
    QSize sizeHint() const override
    {
        return {widthOf(unfittedLabels(0)), fontMetrics().height() + 4};
    }
    QSize minimumSizeHint() const override
    {
        return {widthOf(unfittedLabels(kVariants - 1)), fontMetrics().height() + 4};
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        int variant = 0;
        while (variant < kVariants - 1 && widthOf(labels(variant)) > width())
            ++variant;
        const auto [first, last] = labels(variant);
        QPainter p(this);
        const QFontMetrics fm = fontMetrics();
        const int textY = (height() + fm.ascent() - fm.descent()) / 2;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QPoint(0, textY), first);
        const int left = first.isEmpty() ? 0 : fm.horizontalAdvance(first) + kGap;
        const int right = last.isEmpty() ? width() : width() - fm.horizontalAdvance(last) - kGap;
        const QRect bar(left, (height() - 10) / 2, std::max(1, right - left), 10);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        const auto& stops = readOrderStops();
        for (std::size_t i = 0; i < stops.size(); ++i)
            g.setColorAt(double(i) / double(stops.size() - 1), stops[i]);
        p.fillRect(bar, g);
        p.drawText(QPoint(bar.right() + 1 + kGap, textY), last);
    }

private:
    static constexpr int kVariants = 3;
    static constexpr int kGap = 6;
    static constexpr int kBarWidth = 64;
    static constexpr int kMinBarWidth = 40;
    std::optional<std::pair<std::int64_t, std::int64_t>> m_fit;

    std::pair<QString, QString> labels(int variant) const
    {
        if (m_fit) {
            const QString first = QStringLiteral("#%L1").arg(m_fit->first + 1);
            const QString last = QStringLiteral("#%L1").arg(m_fit->second + 1);
            switch (variant) {
            case 0: return {tr("read %1").arg(first), tr("read %1").arg(last)};
            case 1: return {first, last};
            default: return {};
            }
        }
        return unfittedLabels(variant);
    }
    std::pair<QString, QString> unfittedLabels(int variant) const
    {
        switch (variant) {
        case 0: return {tr("read first"), tr("read last")};
        case 1: return {tr("first"), tr("last")};
        default: return {};
        }
    }
    /// The width a variant needs: its labels, the gaps and the ramp.
    int widthOf(const std::pair<QString, QString>& text) const
    {
        const QFontMetrics fm = fontMetrics();
        if (text.first.isEmpty()) return kMinBarWidth;
        return fm.horizontalAdvance(text.first) + fm.horizontalAdvance(text.second) + 2 * kGap +
               kBarWidth;
    }
};

QString shapeHtml(const Shape& shape, const ViewState& state, const QPalette& palette)
{
    QStringList parts;
    const QString tint = focusTint(palette).name();
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const QString n = QString::number(shape[d]);
        parts << (state.isFocused(int(d))
                      ? QStringLiteral("<span style=\"background:%1\">%2</span>").arg(tint, n)
                      : n);
    }
    // Non-breaking inside the tuple: a wrapped title breaks between its parts only.
    return QLatin1Char('(') + parts.join(QStringLiteral(",&nbsp;")) +
           (shape.size() == 1 ? QStringLiteral(",)") : QStringLiteral(")"));
}

/// A title that is a Python name (optionally indexed, "values[1]") labels the faces; anything
/// else ("output 0") is called x.
// A wash of the window colour over the drawing of a stale result: the cells stay readable but
// their colours fade, so an old result is not mistaken for the current one. It takes no input:
// hovering still explains what is shown.
class StaleWash : public QWidget
{
public:
    explicit StaleWash(QWidget* parent) : QWidget(parent)
    {
        setObjectName(QStringLiteral("staleWash"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        hide();
        parent->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == parentWidget() && event->type() == QEvent::Resize)
            setGeometry(parentWidget()->rect());
        return false;
    }

    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        QColor wash = palette().color(QPalette::Window);
        wash.setAlpha(185);
        painter.fillRect(rect(), wash);
    }
};

QString faceName(const QString& title)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\[\\d+\\])?$"));
    return name.match(title).hasMatch() ? title : QStringLiteral("x");
}

} // namespace

struct TensorView::Private
{
    explicit Private(TensorView* view);

    void rebuildLayout(int rowDim, int colDim, bool keepPins, bool newValues);
    void showLayout(bool newValues);
    void syncHeader();
    void syncPins();
    void setReadOrder(ReadOrder order, std::optional<ReadOrderSummary> summary,
                      std::int64_t scaleLast);
    void applyReadOrder(ReadOrder order, const ReadOrderSummary& summary, bool shown,
                        std::int64_t scaleLast);
    QString defaultToolTip(std::int64_t flat) const;
    /// After background work has landed: tells whoever waits if nothing else is pending.
    void checkSettled();
    /// The title and the legend's size in a picture, and where the cells start.
    QSize pictureHeader() const;
    /// The caption is a courtesy: it gives way to the controls, ending in "…" when narrow.
    void elideCaption();
    /// The legend shows while elements are selected: beside the title while both fit on one
    /// line, else under it, the title alone on its row and exactly as tall as its lines (at
    /// 1920 x 1080, scale 2, a title beside the legend wrapped over three lines in half the
    /// view's width, and a short view cut the last: "params int32 (4, 3) 12").
    void showLegend();

    /// The title's width on one line and its height at a width, laid out again only when its
    /// text, font or the width change: showLegend runs for a new tensor, a new order and every
    /// resize, and laying out the rich-text title each time took over half of a result's
    /// hand-over to its views (dynamic_partition: up to 8 output views and 2 input views).
    struct TitleSize
    {
        int lineWidth(const QLabel& label);
        int heightAt(const QLabel& label, int room);

        QString text;
        QFont font;
        int width = -1;
        int heightRoom = -1;
        int height = 0;
    };

    TensorView* q;
    TensorModel* model;
    ViewState state;
    /// Summarises large read orders on the shared pool; busy while one is on its way.
    JobTracker* stats;
    QString title;
    std::int64_t threshold = kDefaultHeatMapThreshold;
    std::function<QString(std::int64_t)> provider;
    bool heatMode = false;

    QBoxLayout* header;
    QLabel* titleLabel;
    TitleSize titleSize;
    Legend* legend;
    QWidget* controlBar;
    QHBoxLayout* controls;
    QHBoxLayout* pinRow; ///< the pins' spin boxes, on a row of their own: a narrow view fits both
    QWidget* pinBar;
    QWidget* faceBox;
    QComboBox* rowBox;
    QComboBox* colBox;
    QLabel* pinCaption;
    QString caption;   ///< "x[1, :, :]": what the pins leave on show
    QString staleNote; ///< non-empty: the result shown is an old one, and this says which
    StaleWash* wash = nullptr;
    std::vector<QLabel*> pinLabels;
    std::vector<QSpinBox*> pinBoxes;
    QStackedWidget* stack;
    TensorCanvas* canvas;
    HeatMap* heat;
};

TensorView::Private::Private(TensorView* view)
    : q(view), model(new TensorModel(view)), stats(new JobTracker(view))
{
    state.model = model;
    state.toolTip = [this](std::int64_t flat) {
        return provider ? provider(flat) : defaultToolTip(flat);
    };

    titleLabel = new QLabel(q);
    titleLabel->setObjectName(QStringLiteral("title"));
    titleLabel->setTextFormat(Qt::RichText);
    titleLabel->setWordWrap(true); // a narrow view wraps its title rather than cutting it
    legend = new Legend(q);
    legend->hide();
    header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 2);
    header->addWidget(titleLabel, 1);
    header->addWidget(legend, 0, Qt::AlignLeft);

    // The second row: which dimensions form a face, and the pinned outer indices.
    controlBar = new QWidget(q);
    auto* controlRows = new QVBoxLayout(controlBar);
    controlRows->setContentsMargins(4, 0, 4, 0);
    controlRows->setSpacing(2);
    controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    pinBar = new QWidget(controlBar);
    pinRow = new QHBoxLayout(pinBar);
    pinRow->setContentsMargins(0, 0, 0, 0);
    pinRow->addStretch();
    pinBar->hide();
    controlRows->addLayout(controls);
    controlRows->addWidget(pinBar);
    faceBox = new QWidget(controlBar);
    auto* faceLayout = new QHBoxLayout(faceBox);
    faceLayout->setContentsMargins(0, 0, 8, 0);
    rowBox = new QComboBox(faceBox);
    rowBox->setObjectName(QStringLiteral("faceRows"));
    rowBox->setAccessibleName(tr("Dimension drawn as rows"));
    rowBox->setToolTip(tr("Which dimension runs down the rows of each face"));
    colBox = new QComboBox(faceBox);
    colBox->setObjectName(QStringLiteral("faceCols"));
    colBox->setAccessibleName(tr("Dimension drawn as columns"));
    colBox->setToolTip(tr("Which dimension runs across the columns of each face"));
    for (QComboBox* box : {rowBox, colBox}) {
        // "dim 7" stays readable however narrow the view.
        box->setMinimumContentsLength(5);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    // On Linux Qt names a combo box by its value ("dim 4") and a screen reader finds what it
    // chooses through the label it is the buddy of: the label says it in full.
    for (auto [caption, box] : {std::pair{tr("rows"), rowBox}, std::pair{tr("cols"), colBox}}) {
        auto* label = new QLabel(caption, faceBox);
        label->setBuddy(box);
        label->setAccessibleName(box->accessibleName());
        faceLayout->addWidget(label);
        faceLayout->addWidget(box);
    }
    pinCaption = new QLabel(controlBar);
    pinCaption->setObjectName(QStringLiteral("pinCaption"));
    pinCaption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    faceBox->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    controls->addWidget(faceBox);
    controls->addWidget(pinCaption, 1);
    controls->addStretch();
    controlBar->hide();

    stack = new QStackedWidget(q);
    canvas = new TensorCanvas(state, stack);
    heat = new HeatMap(state, stack);
    stack->addWidget(canvas);
    stack->addWidget(heat);
    wash = new StaleWash(stack);
    QObject::connect(canvas, &TensorCanvas::cellsOnScreenChanged, q,
                     &TensorView::ordersOnScreenChanged);

    auto* column = new QVBoxLayout(q);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addLayout(header);
    column->addWidget(controlBar);
    column->addWidget(stack, 1);

    const auto onFaceBox = [this] {
        q->setFaceDims(rowBox->currentData().toInt(), colBox->currentData().toInt());
    };
    QObject::connect(rowBox, &QComboBox::activated, q, [this, onFaceBox] {
        if (rowBox->currentData() == colBox->currentData()) // picking the other's dim swaps them
            colBox->setCurrentIndex(colBox->findData(state.layout.rowDim()));
        onFaceBox();
    });
    QObject::connect(colBox, &QComboBox::activated, q, [this, onFaceBox] {
        if (rowBox->currentData() == colBox->currentData())
            rowBox->setCurrentIndex(rowBox->findData(state.layout.colDim()));
        onFaceBox();
    });
    QObject::connect(canvas, &TensorCanvas::hovered, q, &TensorView::elementHovered);
    QObject::connect(heat, &HeatMap::hovered, q, &TensorView::elementHovered);
    // A heat map's accessible description names the element under the mouse.
    QObject::connect(heat, &HeatMap::hovered, q, [this] {
        if (!QAccessible::isActive()) return;
        QAccessibleEvent event(heat, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&event);
    });
    QObject::connect(heat, &HeatMap::settled, q, [this] { checkSettled(); });
    QObject::connect(stats, &JobTracker::idle, q, [this] { checkSettled(); });
    QObject::connect(model, &TensorModel::elementEdited, q, &TensorView::elementEdited);
}

TensorView::TensorView(QWidget* parent) : QWidget(parent), d(std::make_unique<Private>(this))
{
    TensorAccessible::install(); // the cells as an accessible table
    setAccessibleName(tr("Tensor"));
    d->syncHeader();
    // The views have no cell selection: Ctrl+C copies the whole tensor, which for one drawn as
    // cells (the default heat-map threshold is the literal's limit) is what is on show.
    auto* copy = new QAction(tr("Copy as a NumPy Literal"), this);
    copy->setObjectName(QStringLiteral("actionCopyTensor"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [this] {
        QString error;
        if (!copyAsNumpy(&error)) QToolTip::showText(mapToGlobal(rect().center()), error, this);
    });
    addAction(copy);
}

bool TensorView::copyAsNumpy(QString* error)
{
    const Tensor& tensor = d->model->tensor();
    if (!tensor.isValid() || tensor.size() > kNumpyLiteralLimit) {
        if (error)
            *error = tensor.isValid()
                         ? tr("%1 has %2 elements; Ctrl+C copies at most %3 as a NumPy literal "
                              "(File > Export Output as .npy writes any size)")
                               .arg(d->title, QLocale().toString(qint64(tensor.size())),
                                    QLocale().toString(qint64(kNumpyLiteralLimit)))
                         : tr("There is no tensor to copy");
        return false;
    }
    QGuiApplication::clipboard()->setText(numpyLiteral(tensor));
    return true;
}

TensorView::~TensorView()
{
    // The drawings and the statistics go before the state they deliver into; their trackers
    // drop whatever is still on its way.
    delete d->stats;
    delete d->stack;
}

std::int64_t TensorView::hoveredElement() const
{
    return d->state.hovered;
}

QString TensorView::elementToolTip(std::int64_t flatIndex) const
{
    return flatIndex >= 0 && flatIndex < d->model->tensor().size() ? d->state.toolTip(flatIndex)
                                                                   : QString();
}

QString TensorView::title() const
{
    return d->title;
}

void TensorView::setTensor(const ss::Tensor& given, const QString& title)
{
    // No tensor (Tensor()) has no shape: it is shown as one with no elements, never laid out as
    // a scalar's one cell, which the heat map would sample from no buffer.
    const Tensor tensor = given.isValid() ? given : Tensor::empty(DType::Float32, {0});
    const Tensor& old = d->model->tensor();
    const Shape oldShape = old.shape();
    const bool sameShape = old.isValid() && tensor.isValid() && oldShape == tensor.shape();
    // Tensors never change once made, so one whose buffer is on show is what is drawn (an input
    // when only the expression was edited).
    const bool sameValues = sameShape && old.dtype() == tensor.dtype() && old.raw() == tensor.raw();
    if (sameValues && title == d->title) return;
    const bool sameSize = old.size() == tensor.size();
    d->title = title;
    d->state.name = faceName(title);
    d->model->setTensor(tensor);
    if (!sameSize) {
        // An order for the old element count, shown or on its way, cannot belong to this one.
        const bool wasPending = d->stats->isBusy();
        d->stats->invalidate();
        d->state.selection = {};
        d->state.scaleLast = -1;
        d->state.fitLast = -1;
        d->legend->setFit(std::nullopt, 0);
        if (wasPending)
            QMetaObject::invokeMethod(
                this, [this] { d->checkSettled(); }, Qt::QueuedConnection);
    }
    d->state.hovered = -1;
    setAccessibleName(tr("%1 tensor").arg(title));
    d->canvas->setAccessibleName(tr("%1 cells").arg(title));
    d->heat->setAccessibleName(tr("%1 heat map").arg(title));
    const bool sameRank = int(oldShape.size()) == tensor.rank();
    d->rebuildLayout(sameRank ? d->state.layout.rowDim() : -1,
                     sameRank ? d->state.layout.colDim() : -1, sameShape, !sameValues);
    // Screen readers hear that the cells are new (and the accessible tables let go of theirs).
    if (QAccessible::isActive())
        for (QWidget* drawing :
             {static_cast<QWidget*>(d->canvas), static_cast<QWidget*>(d->heat)}) {
            QAccessibleTableModelChangeEvent event(drawing,
                                                   QAccessibleTableModelChangeEvent::ModelReset);
            QAccessible::updateAccessibility(&event);
        }
}

void TensorView::Private::rebuildLayout(int rowDim, int colDim, bool keepPins, bool newValues)
{
    const FaceLayout old = state.layout;
    FaceLayout layout(model->tensor().isValid() ? model->tensor().shape() : Shape{}, rowDim,
                      colDim);
    heatMode = layout.hasElements() && model->tensor().isValid() && layout.faceCells() > threshold;
    layout.pinFor(heatMode ? 0 : kMaxFaces, heatMode ? 0 : kMaxShownCells);
    if (keepPins && layout.outerDims() == old.outerDims())
        for (std::size_t k = 0; k < std::min(layout.pins().size(), old.pins().size()); ++k)
            layout.setPin(int(k), old.pins()[k]);
    state.layout = layout;
    showLayout(newValues);
}

void TensorView::Private::showLayout(bool newValues)
{
    syncHeader();
    syncPins();
    if (heatMode) {
        stack->setCurrentWidget(heat);
        heat->resetFace(newValues);
    } else {
        stack->setCurrentWidget(canvas);
        canvas->relayout();
    }
    wash->raise();
    emit q->ordersOnScreenChanged();
}

void TensorView::Private::syncHeader()
{
    const Tensor& t = model->tensor();
    if (!t.isValid()) {
        titleLabel->setText(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
        titleLabel->setAccessibleName(plainText(titleLabel->text()));
        controlBar->hide();
        legend->hide();
        return;
    }
    const Shape& shape = t.shape();
    const QString count = t.size() == 1 ? tr("1 element") : tr("%L1 elements").arg(t.size());
    const QString name = staleNote.isEmpty()
                             ? title.toHtmlEscaped()
                             : QStringLiteral("%1</b> <i>(%2)</i><b>")
                                   .arg(title.toHtmlEscaped(), staleNote.toHtmlEscaped());
    titleLabel->setText(QStringLiteral("<b>%1</b>&nbsp; %2&nbsp; %3&nbsp; %4")
                            .arg(name,
                                 QString::fromLatin1(dtypeName(t.dtype()).data(),
                                                     qsizetype(dtypeName(t.dtype()).size())),
                                 shapeHtml(shape, state, q->palette()), count));
    titleLabel->setAccessibleName(plainText(titleLabel->text()));
    showLegend();

    const FaceLayout& layout = state.layout;
    faceBox->setVisible(layout.rank() >= 3);
    controlBar->setVisible(layout.rank() >= 3 || !layout.pins().empty());
    if (layout.rank() >= 3) {
        for (QComboBox* box : {rowBox, colBox}) {
            const QSignalBlocker block(box);
            box->clear();
            for (int dim = 0; dim < layout.rank(); ++dim) {
                box->addItem(tr("dim %1").arg(dim), dim);
                box->setItemData(dim, tr("size %1").arg(shape[std::size_t(dim)]), Qt::ToolTipRole);
            }
        }
        rowBox->setCurrentIndex(layout.rowDim());
        colBox->setCurrentIndex(layout.colDim());
    }
}

void TensorView::Private::syncPins()
{
    const FaceLayout& layout = state.layout;
    const auto& pins = layout.pins();
    pinCaption->setVisible(!pins.empty());
    pinBar->setVisible(!pins.empty());
    // Rebuild the spin boxes only when other dimensions are pinned; otherwise just move them.
    bool same = pins.size() == pinBoxes.size();
    for (std::size_t k = 0; same && k < pins.size(); ++k)
        same = pinBoxes[k]->property("dim").toInt() == layout.outerDims()[k] &&
               pinBoxes[k]->maximum() == layout.shape()[std::size_t(layout.outerDims()[k])] - 1;
    if (!same) {
        for (QWidget* w : pinLabels)
            delete w;
        for (QWidget* w : pinBoxes)
            delete w;
        pinLabels.clear();
        pinBoxes.clear();
        for (std::size_t k = 0; k < pins.size(); ++k) {
            const int dim = layout.outerDims()[k];
            const std::int64_t size = layout.shape()[std::size_t(dim)];
            auto* label = new QLabel(tr("dim %1").arg(dim), pinBar);
            auto* box = new QSpinBox(pinBar);
            box->setObjectName(QStringLiteral("pin%1").arg(dim));
            box->setProperty("dim", dim);
            box->setRange(0, int(std::min<std::int64_t>(size - 1, INT_MAX)));
            box->setAccessibleName(tr("Index of dimension %1").arg(dim));
            box->setToolTip(
                tr("Which index of dimension %1 (size %2) is shown").arg(dim).arg(size));
            label->setBuddy(box);
            QObject::connect(box, &QSpinBox::valueChanged, q, [this, k](int value) {
                state.layout.setPin(int(k), value);
                showLayout(false);
            });
            pinRow->insertWidget(pinRow->count() - 1, label); // before the stretch
            pinRow->insertWidget(pinRow->count() - 1, box);
            pinLabels.push_back(label);
            pinBoxes.push_back(box);
        }
    }
    QStringList parts;
    for (int dim = 0; dim < layout.rank(); ++dim) {
        const auto it = std::find(layout.outerDims().begin(), layout.outerDims().end(), dim);
        const auto k = std::size_t(it - layout.outerDims().begin());
        parts << (k < pins.size() ? QString::number(pins[k]) : QStringLiteral(":"));
    }
    caption = QStringLiteral("%1[%2]").arg(state.name, parts.join(QStringLiteral(", ")));
    pinCaption->setToolTip(tr("Showing %1").arg(caption));
    // The label may be elided to nothing; its name never is.
    pinCaption->setAccessibleName(pinCaption->toolTip());
    elideCaption();
    for (std::size_t k = 0; k < pins.size(); ++k) {
        const QSignalBlocker block(pinBoxes[k]);
        pinBoxes[k]->setValue(int(pins[k]));
        // Only the two roles are set, so the rest follows the theme.
        QPalette lit;
        if (state.isFocused(layout.outerDims()[k])) {
            lit.setColor(QPalette::Window, focusTint(q->palette()));
            lit.setColor(QPalette::WindowText, focusText(q->palette()));
        }
        pinLabels[k]->setPalette(lit);
        pinLabels[k]->setAutoFillBackground(state.isFocused(layout.outerDims()[k]));
    }
}

void TensorView::Private::applyReadOrder(ReadOrder order, const ReadOrderSummary& summary,
                                         bool shown, std::int64_t scaleLast)
{
    state.selection = summary;
    state.scaleLast = order ? scaleLast : -1;
    state.fitLast = -1;
    legend->setFit(std::nullopt, 0);
    model->setReadOrder(order);
    showLegend();
    // Show the selection: pin to the element read first if nothing selected is on show.
    if (state.hasSelection() && !shown && state.layout.pinTo(summary.first)) {
        showLayout(false);
    } else if (heatMode) {
        heat->refreshSelection();
    }
    if (!heatMode) {
        if (state.hasSelection() &&
            !canvas->anyVisible([this](std::int64_t f) { return model->readOrderAt(f) >= 0; }))
            canvas->ensureVisible(summary.first, true);
        canvas->viewport()->update();
    }
    emit q->ordersOnScreenChanged();
}

void TensorView::setReadOrder(ReadOrder order)
{
    d->setReadOrder(std::move(order), {}, -1);
}

void TensorView::setReadOrder(ReadOrder order, std::int64_t lastOrder)
{
    d->setReadOrder(std::move(order), {}, lastOrder);
}

void TensorView::setReadOrder(ReadOrder order, const ReadOrderSummary& summary,
                              std::int64_t lastOrder)
{
    d->setReadOrder(std::move(order), summary, lastOrder);
}

void TensorView::Private::setReadOrder(ReadOrder order, std::optional<ReadOrderSummary> summary,
                                       std::int64_t scaleLast)
{
    // An order on its way was asked for by an older call: dropped.
    const bool wasPending = stats->isBusy();
    stats->invalidate();
    if (order && order->size() != model->tensor().size())
        order.reset(); // not this tensor's: shown as no selection
    if (!order)
        summary = ReadOrderSummary{};
    else if (!summary && order->size() <= std::int64_t(kSyncStatsLimit))
        summary = summarizeReadOrder(*order);
    const FaceLayout& layout = state.layout;
    // Whether a selected element is on show is known at once unless the pins leave many cells
    // and the first element read is not among them.
    if (summary && (!order || summary->selected == 0 || layout.pins().empty() ||
                    layout.locate(summary->first) ||
                    layout.faceCount() * layout.faceCells() <= std::int64_t(kSyncStatsLimit))) {
        applyReadOrder(order, *summary, order && showsSelected(*order, *summary, layout),
                       scaleLast);
        // A summary that was on its way is dropped: whoever waits for it hears from the loop.
        if (wasPending)
            QMetaObject::invokeMethod(
                q, [this] { checkSettled(); }, Qt::QueuedConnection);
        return;
    }
    // Large: summarise on the worker; the old selection stays until the new one is complete.
    // Whoever waits hears when the tracker is idle.
    stats->start(
        [this, order, summary, layout, scaleLast](JobContext&, const JobTracker::Delivery& to) {
            const ReadOrderSummary found = summary ? *summary : summarizeReadOrder(*order);
            const bool shown = showsSelected(*order, found, layout);
            to.post([this, order, found, shown, scaleLast] {
                applyReadOrder(order, found, shown, scaleLast);
            });
        });
}

void TensorView::setOutlined(std::vector<std::int64_t> flatIndices)
{
    if (!d->model->setOutlined(std::move(flatIndices))) return;
    const auto& outlined = d->model->outlined();
    FaceLayout& layout = d->state.layout;
    if (!outlined.empty()) {
        const std::size_t probe = std::min(outlined.size(), kOutlineProbe);
        const bool shown =
            std::any_of(outlined.begin(), outlined.begin() + std::ptrdiff_t(probe),
                        [&](std::int64_t f) { return layout.locate(f).has_value(); });
        if (!shown && layout.pinTo(outlined.front())) d->showLayout(false);
    }
    if (d->heatMode) {
        if (!outlined.empty()) d->heat->ensureVisible(outlined.front());
        d->heat->refreshMarks();
        return;
    }
    if (!outlined.empty() &&
        !d->canvas->anyVisible([this](std::int64_t f) { return d->model->isOutlined(f); }))
        d->canvas->ensureVisible(outlined.front());
    d->canvas->viewport()->update();
}

void TensorView::setMarked(std::vector<std::int64_t> flatIndices)
{
    if (!d->model->setMarked(std::move(flatIndices))) return;
    if (!d->heatMode) d->canvas->viewport()->update();
}

void TensorView::setFocusDims(std::vector<int> dims)
{
    if (dims == d->state.focusDims) return;
    d->state.focusDims = std::move(dims);
    d->syncHeader();
    d->syncPins();
    if (d->heatMode)
        d->heat->refreshLook();
    else
        d->canvas->viewport()->update();
}

void TensorView::Private::elideCaption()
{
    pinCaption->setText(
        pinCaption->fontMetrics().elidedText(caption, Qt::ElideRight, pinCaption->width()));
}

int TensorView::Private::TitleSize::lineWidth(const QLabel& label)
{
    if (width < 0 || text != label.text() || font != label.font()) {
        stagetrace::mark("gui: view title laid out", &label);
        text = label.text();
        font = label.font();
        QTextDocument line;
        line.setDefaultFont(font);
        line.setDocumentMargin(0);
        line.setHtml(text);
        width = int(std::ceil(line.idealWidth()));
        heightRoom = -1;
    }
    return width;
}

int TensorView::Private::TitleSize::heightAt(const QLabel& label, int room)
{
    lineWidth(label); // forgets the height of another text or font
    if (heightRoom != room) {
        heightRoom = room;
        height = label.heightForWidth(room);
    }
    return height;
}

void TensorView::Private::showLegend()
{
    legend->setVisible(state.hasSelection());
    const QMargins margins = header->contentsMargins();
    const int room = q->width() - margins.left() - margins.right();
    const int beside = titleSize.lineWidth(*titleLabel) + std::max(0, header->spacing()) +
                       legend->sizeHint().width();
    const bool besideFits = !legend->isHidden() && beside <= room;
    header->setDirection(besideFits ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    // Alone on its row it is as tall as its lines at the view's width: a short view grows (its
    // column scrolls) rather than cutting the last line, and no gap opens above the legend.
    if (besideFits) {
        titleLabel->setMinimumHeight(0);
        titleLabel->setMaximumHeight(QWIDGETSIZE_MAX);
    } else {
        titleLabel->setFixedHeight(titleSize.heightAt(*titleLabel, room));
    }
}

void TensorView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    d->elideCaption();
    d->showLegend();
}

void TensorView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) { // the focus tint follows the theme
        d->syncHeader();
        d->syncPins();
    }
}

std::vector<int> TensorView::focusDims() const
{
    return d->state.focusDims;
}

ReadOrderSummary TensorView::selection() const
{
    return d->state.selection;
}

std::int64_t TensorView::readOrderScaleEnd() const
{
    return d->state.hasSelection() ? d->state.lastOrder() : -1;
}

void TensorView::setFittedScale(std::optional<std::pair<std::int64_t, std::int64_t>> range)
{
    if (range == fittedScale()) return;
    d->state.fitFirst = range ? range->first : 0;
    d->state.fitLast = range ? range->second : -1;
    d->legend->setFit(range, d->state.lastOrder() + 1);
    if (d->heatMode)
        d->heat->refreshSelection();
    else
        d->canvas->viewport()->update();
}

std::optional<std::pair<std::int64_t, std::int64_t>> TensorView::fittedScale() const
{
    if (d->state.fitLast < 0) return std::nullopt;
    return std::pair(d->state.fitFirst, d->state.fitLast);
}

std::optional<std::pair<std::int64_t, std::int64_t>> TensorView::ordersOnScreen() const
{
    if (d->heatMode || !d->state.hasSelection()) return std::nullopt;
    std::int64_t lo = INT64_MAX, hi = -1;
    d->canvas->anyVisible(
        [&](std::int64_t flat) {
            if (const std::int64_t order = d->model->readOrderAt(flat); order >= 0) {
                lo = std::min(lo, order);
                hi = std::max(hi, order);
            }
            return false;
        },
        true);
    if (hi < 0) return std::nullopt;
    return std::pair(lo, hi);
}

void TensorView::setStale(const QString& note)
{
    if (note == d->staleNote) return;
    d->staleNote = note;
    d->wash->setGeometry(d->stack->rect());
    d->wash->setVisible(!note.isEmpty());
    d->wash->raise();
    d->syncHeader();
}

QString TensorView::staleNote() const
{
    return d->staleNote;
}

void TensorView::setEditable(bool editable)
{
    d->model->setEditable(editable);
}

void TensorView::setToolTipProvider(std::function<QString(std::int64_t)> provider)
{
    d->provider = std::move(provider);
}

QString TensorView::Private::defaultToolTip(std::int64_t flat) const
{
    const std::int64_t order = model->readOrderAt(flat);
    QString text = state.elementLabel(flat) + QStringLiteral(" = ") + model->formatter().text(flat);
    if (model->readOrder())
        text += order >= 0 ? tr("\nread at position %1").arg(order) : tr("\nnot read");
    return text;
}

TensorModel* TensorView::model() const
{
    return d->model;
}

bool TensorView::isHeatMap() const
{
    return d->heatMode;
}

QWidget* TensorView::viewport() const
{
    return d->heatMode ? static_cast<QWidget*>(d->heat) : d->canvas->viewport();
}

std::int64_t TensorView::elementAt(const QPoint& pos) const
{
    if (d->heatMode) return d->heat->elementAt(d->heat->mapFrom(this, pos));
    QWidget* vp = d->canvas->viewport();
    const QPoint p = vp->mapFrom(this, pos);
    return vp->rect().contains(p) ? d->canvas->elementAt(p) : -1;
}

QRect TensorView::elementRect(std::int64_t flatIndex) const
{
    QWidget* vp = viewport();
    QRect rect = d->heatMode ? d->heat->elementRect(flatIndex) : d->canvas->elementRect(flatIndex);
    if (!d->heatMode) rect = rect.intersected(vp->rect());
    if (rect.isEmpty()) return {};
    return rect.translated(vp->mapTo(this, QPoint(0, 0)));
}

void TensorView::setHeatMapThreshold(std::int64_t cells)
{
    d->threshold = std::clamp<std::int64_t>(cells, 1, kMaxHeatMapThreshold);
    d->rebuildLayout(d->state.layout.rowDim(), d->state.layout.colDim(), true, false);
}

std::int64_t TensorView::heatMapThreshold() const
{
    return d->threshold;
}

void TensorView::setFaceDims(int rowDim, int colDim)
{
    d->rebuildLayout(rowDim, colDim, false, false);
    // Looked at again for the new faces: may pin to show the selection.
    d->setReadOrder(d->model->readOrder(), d->state.selection, d->state.scaleLast);
}

int TensorView::faceRowDim() const
{
    return d->state.layout.rowDim();
}

int TensorView::faceColDim() const
{
    return d->state.layout.colDim();
}

std::vector<std::pair<int, std::int64_t>> TensorView::pinnedDims() const
{
    std::vector<std::pair<int, std::int64_t>> pinned;
    const FaceLayout& layout = d->state.layout;
    for (std::size_t k = 0; k < layout.pins().size(); ++k)
        pinned.emplace_back(layout.outerDims()[k], layout.pins()[k]);
    return pinned;
}

bool TensorView::isSettled() const
{
    return !d->stats->isBusy() && (!d->heatMode || d->heat->isSettled());
}

void TensorView::Private::checkSettled()
{
    if (q->isSettled()) emit q->settled();
}

} // namespace ss::ui

namespace ss::ui {

namespace {
/// Room between a picture's header and its cells.
constexpr int kPictureGap = 4;

QSize shownSize(const QWidget* w)
{
    return w->size().isEmpty() ? w->sizeHint() : w->size();
}
} // namespace

QSize TensorView::Private::pictureHeader() const
{
    const QSize title = shownSize(titleLabel);
    const QSize key = state.hasSelection() ? shownSize(legend) : QSize(0, 0);
    return {title.width() + (key.width() > 0 ? 2 * kPictureGap + key.width() : 0),
            std::max(title.height(), key.height()) + kPictureGap};
}

QSize TensorView::pictureSize() const
{
    const QSize header = d->pictureHeader();
    const QSize body = d->heatMode                          ? shownSize(d->heat)
                       : d->canvas->contentSize().isEmpty() ? d->canvas->emptyStateSize()
                                                            : d->canvas->contentSize();
    return {std::max(header.width(), body.width()), header.height() + body.height()};
}

void TensorView::paintPicture(QPainter& painter, std::int64_t revealUpTo) const
{
    // Colours fitted to the cells on screen are fitted to the cells in the picture instead: it
    // shows more of them, and the ones off screen would all take an end's colour.
    const auto screenFit = fittedScale();
    if (screenFit) {
        const std::vector<std::int64_t> shown = pictureReadPositions();
        if (!shown.empty()) {
            d->state.fitFirst = shown.front();
            d->state.fitLast = shown.back();
            d->legend->setFit(std::pair(shown.front(), shown.back()), d->state.lastOrder() + 1);
        }
    }
    const QSize size = pictureSize();
    const QSize header = d->pictureHeader();
    const QPalette& pal = palette();
    painter.save();
    painter.fillRect(QRect(0, 0, size.width(), header.height()), pal.color(QPalette::Window));
    painter.fillRect(QRect(0, header.height(), size.width(), size.height() - header.height()),
                     pal.color(QPalette::Base));
    // The header's own widgets paint themselves: the picture says what the screen says.
    d->titleLabel->render(&painter, QPoint(0, 0), QRegion(), QWidget::DrawChildren);
    if (d->state.hasSelection())
        d->legend->render(
            &painter,
            QPoint(size.width() - shownSize(d->legend).width(),
                   (header.height() - kPictureGap - shownSize(d->legend).height()) / 2),
            QRegion(), QWidget::DrawChildren);
    painter.translate(0, header.height());
    const QRect body(QPoint(0, 0), size - QSize(0, header.height()));
    if (d->heatMode)
        d->heat->render(&painter, QPoint(0, 0), QRegion(), QWidget::DrawChildren);
    else if (d->canvas->contentSize().isEmpty()) // the screen's note, not a blank
        d->canvas->paintEmptyState(painter, body);
    else
        d->canvas->paintContent(painter, body, TensorCanvas::PaintOptions{false, revealUpTo});
    if (isStale()) { // the screen's wash, so an old result is not taken for the current one
        QColor wash = pal.color(QPalette::Window);
        wash.setAlpha(185);
        painter.fillRect(body, wash);
    }
    painter.restore();
    if (screenFit) {
        d->state.fitFirst = screenFit->first;
        d->state.fitLast = screenFit->second;
        d->legend->setFit(screenFit, d->state.lastOrder() + 1);
    }
}

QRect TensorView::pictureRect(std::int64_t flatIndex) const
{
    if (d->heatMode) return {};
    const QRect rect = d->canvas->contentRect(flatIndex);
    return rect.isNull() ? rect : rect.translated(0, d->pictureHeader().height());
}

std::vector<std::int64_t> TensorView::pictureReadPositions() const
{
    std::vector<std::int64_t> orders;
    if (d->heatMode || !d->state.hasSelection()) return orders;
    d->state.layout.forEachShown([&](std::int64_t flat) {
        if (const std::int64_t order = d->model->readOrderAt(flat); order >= 0)
            orders.push_back(order);
    });
    std::sort(orders.begin(), orders.end());
    orders.erase(std::unique(orders.begin(), orders.end()), orders.end());
    return orders;
}

} // namespace ss::ui
