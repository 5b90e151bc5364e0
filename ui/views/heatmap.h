// SPDX-License-Identifier: GPL-3.0-or-later
// The heat-map drawing of a tensor view, for faces too big to read cell by cell: values as a
// grey colour map, the selection as a second, translucent colour map on top, outlines and hover
// on a layer of their own. Both maps are sampled to screen resolution on a worker thread and
// only swapped in on the GUI thread, so even 10^7 elements never stall it. Up to 2^28 cells in
// view, a map cell is its whole block (the mean of its values; the first-read element of the
// selection); beyond that (a mapped .npy file bigger than memory), it is read from 2 x 2 elements
// of its block evenly spaced, and the grey scale spans the values of 1024 evenly spaced runs of
// 4096 elements, so a 16 GB tensor is drawn from a few tens of megabytes of it.
#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <utility>

namespace ss::ui {

class CellEditor;
class JobTracker;
class PrebuiltColorMap;
struct ViewState;

/// What a sampling covers: the visible cells [r0, r1) x [c0, c1), sampled to width x height map
/// cells. A view moved or resized is resampled only if this changed.
struct HeatMapArea
{
    std::int64_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    int width = 0, height = 0;
    bool operator==(const HeatMapArea&) const = default;
};

class HeatMap : public QCustomPlot
{
    Q_OBJECT
public:
    /// Samples on the workbench's shared pool; a newer sampling cancels an older one.
    HeatMap(ViewState& state, QWidget* parent);

    /// A new face to show (tensor, face dims or pins): resamples it, fitted into view unless it
    /// has the size of the last one. `newValues`: the tensor itself changed, so its value range
    /// is recomputed.
    void resetFace(bool newValues);
    /// The read order changed: resamples the selection map only.
    void refreshSelection();
    /// The outline or the hover changed: redraws the marks layer only.
    void refreshMarks();
    /// The focused dimensions or the palette changed.
    void refreshLook();

    /// The element whose cell holds the centre of the pixel at `pos`, or -1.
    std::int64_t elementAt(const QPoint& pos) const;
    /// The pixels elementAt() maps to this element, in widget coordinates: null when it is
    /// outside the visible range or, zoomed out, holds no pixel centre of its own.
    QRect elementRect(std::int64_t flat) const;
    /// Pans (keeping the zoom) so that element `flat` is in view.
    void ensureVisible(std::int64_t flat);
    /// No sampling and no replot is pending: what is drawn is the newest data.
    bool isSettled() const;

signals:
    void hovered(qint64 flatIndex);
    void settled();

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Samples;

    /// Asks for what is visible to be sampled, at the next pass of the event loop; a newer
    /// request supersedes an older one's work.
    void requestSamples(bool values, bool selection);
    void startSampling();
    /// The resample timer: the view moved or was resized; samples again if the area in view is
    /// not the one the latest sampling covers.
    void resampleIfMoved();
    /// The cells in view and the map size for them, at the plot's current size and axis ranges.
    HeatMapArea areaInView();
    /// Axis labels and colours for the face and the palette, drawn at the next replot.
    void applyLook();
    /// Null samples: the sampling stopped without a result.
    void applySamples(std::shared_ptr<Samples> samples);
    void clampRange(QCPAxis* axis, std::int64_t cells);
    QRectF cellPixels(std::int64_t row, std::int64_t col) const;
    /// Along an axis: the first and last pixel whose centres fall in `cell` (last < first: none).
    std::pair<int, int> pixelSpan(const QCPAxis* axis, std::int64_t cell) const;
    /// Along an axis: the cell whose span holds `pixel`.
    std::int64_t cellAt(const QCPAxis* axis, int pixel) const;
    void drawMarks(QCPPainter* painter);
    void setHovered(std::int64_t flat);
    /// Replots at the next event-loop pass, if the plot is on screen.
    void redraw();
    /// A resize's queued replot: drawn unless the plot is back at the size last drawn.
    void replotIfResized();

    ViewState& m_state;
    JobTracker* m_jobs;
    PrebuiltColorMap* m_values;
    PrebuiltColorMap* m_selection;
    QCPLayer* m_marksLayer;
    CellEditor* m_editor;
    QTimer* m_resampleTimer;
    bool m_valuesWanted = false;    ///< pending work: resample the values
    bool m_selectionWanted = false; ///< pending work: resample the selection
    /// The running sampling's work, until it is applied: a newer sampling drops its result, so
    /// it takes this work on too.
    bool m_valuesSampling = false;
    bool m_selectionSampling = false;
    bool m_startQueued = false;        ///< startSampling() is on its way
    bool m_resizeReplotQueued = false; ///< replotIfResized() is on its way
    QSize m_plottedSize;               ///< the size the last replot drew at
    bool m_haveRange = false;          ///< the value range of the current tensor is known
    QCPRange m_valueRange;
    HeatMapArea m_sampledArea;    ///< the latest sampling's (none: all zero)
    std::int64_t m_faceRows = -1; ///< the face the axis ranges were fitted to
    std::int64_t m_faceCols = -1;
};

} // namespace ss::ui
