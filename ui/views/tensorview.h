// SPDX-License-Identifier: GPL-3.0-or-later
// The tensor view: one tensor drawn as nested 2-D faces (or a heat map when large), with the
// selection lit up in read order and hover linked to another view. This header is the contract
// between the view and the workbench that hosts it.
#pragma once

#include "core/tensor.h"
#include "ui/model/readordermap.h"
#include "ui/views/tensormodel.h"

#include <QWidget>

class QPainter;

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ss::ui {

/// Draws a tensor. Small faces show every number over its colour; past a cell-count threshold a
/// face becomes a heat map (QCustomPlot) with the selection as an overlay. Hover, the focus on
/// dimensions, and the outline behave the same in both modes.
class TensorView : public QWidget
{
    Q_OBJECT
public:
    explicit TensorView(QWidget* parent = nullptr);
    ~TensorView() override;

    /// `title` labels the view ("input", "output 0", "values[1]").
    void setTensor(const ss::Tensor& tensor, const QString& title);
    QString title() const;
    void setReadOrder(ReadOrder order);
    /// Like setReadOrder(order), but the ramp runs from read position 0 to `lastOrder` rather
    /// than to this tensor's own last read, so that several views of one op (its inputs and its
    /// output, with orders counted over the whole op) share one colour scale.
    void setReadOrder(ReadOrder order, std::int64_t lastOrder);
    /// Like setReadOrder(order, lastOrder), with the order's summary (which must be right), so
    /// that even a large order is applied at once.
    void setReadOrder(ReadOrder order, const ReadOrderSummary& summary, std::int64_t lastOrder);
    /// The summary of the read order on show (its count of selected elements, first, last).
    ReadOrderSummary selection() const;
    /// The read position the colour ramp ends at ("read last"), -1 when nothing is selected.
    std::int64_t readOrderScaleEnd() const;
    /// Runs the colour ramp between read positions `first` and `last` instead of from 0 to
    /// readOrderScaleEnd(), so that the cells on screen use all of it (the workbench fits all
    /// views of an op to what they show together); std::nullopt: the whole range again. A new
    /// read order ends the fit.
    void setFittedScale(std::optional<std::pair<std::int64_t, std::int64_t>> range);
    /// The ramp's ends while fitted.
    std::optional<std::pair<std::int64_t, std::int64_t>> fittedScale() const;
    /// The lowest and highest read positions of the selected cells on screen; std::nullopt when
    /// none is on screen, and for a heat map (its colours always span the whole range).
    std::optional<std::pair<std::int64_t, std::int64_t>> ordersOnScreen() const;
    /// Outlines these elements (the sources or targets of a hover in the other view).
    void setOutlined(std::vector<std::int64_t> flatIndices);
    /// Marks these elements as differing from an exercise's target (a red corner and frame on
    /// the cell faces; the heat map does not draw them); empty: none.
    void setMarked(std::vector<std::int64_t> flatIndices);
    /// Lights these dimensions (the decode stepper's current step); empty: none.
    void setFocusDims(std::vector<int> dims);
    void setEditable(bool editable);
    /// Marks what is shown as an old result: the drawing is greyed and the title says `note`
    /// ("last good result of x[1:]"); an empty note shows it as current again.
    void setStale(const QString& note);
    QString staleNote() const;
    bool isStale() const { return !staleNote().isEmpty(); }
    /// Text for the tooltip of an element (the workbench explains where it came from).
    void setToolTipProvider(std::function<QString(std::int64_t flatIndex)> provider);

    /// Puts the tensor on the clipboard as a NumPy literal (numpyLiteral(); Ctrl+C in the
    /// view). False, saying why, for a tensor over kNumpyLiteralLimit elements or none.
    bool copyAsNumpy(QString* error = nullptr);

    TensorModel* model() const;
    /// True when the face is drawn as a heat map.
    bool isHeatMap() const;
    /// The flat index under a point in this widget's coordinates, or -1 (for tests).
    std::int64_t elementAt(const QPoint& pos) const;
    /// Where an element is drawn, in this widget's coordinates: exactly the points elementAt()
    /// maps to it. Null when none is on show (scrolled or pinned away, or an element smaller
    /// than a pixel in a zoomed-out heat map).
    QRect elementRect(std::int64_t flatIndex) const;

    /// A face with more cells than this is drawn as a heat map (default 10000, i.e. 100 x 100;
    /// at most 2^20).
    void setHeatMapThreshold(std::int64_t cells);
    std::int64_t heatMapThreshold() const;
    /// The two dimensions that form a face, as rows and columns; a pair that is not two distinct
    /// dimensions restores the default (the last two).
    void setFaceDims(int rowDim, int colDim);
    /// -1 when the face has one row (rank 0 and 1).
    int faceRowDim() const;
    /// -1 for rank 0.
    int faceColDim() const;
    /// Index values of the pinned outer dimensions, outermost first, by dimension number.
    std::vector<std::pair<int, std::int64_t>> pinnedDims() const;
    std::vector<int> focusDims() const;
    /// The widget that receives the mouse in the current mode: the cell canvas's viewport, or
    /// the heat map (for tests: QTest::mouseMove on it).
    QWidget* viewport() const;
    /// The element under the mouse, or -1.
    std::int64_t hoveredElement() const;
    /// The tooltip of an element, as rich text (the workbench's explanation, or its coordinates
    /// and value).
    QString elementToolTip(std::int64_t flatIndex) const;
    /// The view as a picture (File > Export Image, the read-order animation): the title and the
    /// legend above every cell the pins leave on show, not only those scrolled into view, or
    /// the heat map at its size on screen. Device-independent pixels.
    QSize pictureSize() const;
    /// Paints that picture from (0, 0) on any device (screen, image, SVG, PDF), through the code
    /// that paints the screen; no hover or outline. Colours fitted to the screen are fitted to
    /// the picture's cells. Selected cells read after `revealUpTo` are drawn as not read yet
    /// (the animation's frames).
    void paintPicture(QPainter& painter, std::int64_t revealUpTo = INT64_MAX) const;
    /// Where an element's cell is in the picture; null for a heat map or a hidden element.
    QRect pictureRect(std::int64_t flatIndex) const;
    /// The read positions of the selected cells in the picture, ascending and distinct; empty
    /// for a heat map.
    std::vector<std::int64_t> pictureReadPositions() const;

    /// Whether everything computed in the background (read-order statistics for large tensors,
    /// heat-map sampling) has been applied, so what is drawn is the newest state.
    bool isSettled() const;

signals:
    /// The element under the mouse, or -1 when it leaves every element.
    void elementHovered(qint64 flatIndex);
    void elementEdited(qint64 flatIndex, const QString& text);
    /// Work done in the background has landed and nothing else is pending (isSettled()).
    void settled();
    /// ordersOnScreen() may have changed (scrolled, resized, pinned, new tensor or order).
    void ordersOnScreenChanged();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ss::ui
