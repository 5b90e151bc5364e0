// SPDX-License-Identifier: GPL-3.0-or-later
// The read order as an animation: a tensor view's selected cells lighting up one by one, in the
// order the op reads them, each in its final read-order colour. Written as an animated PNG
// (ApngWriter) or as a numbered sequence of PNG frames (frame-0001.png, ...) for a video tool.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace ss::ui {

class TensorView;

class ReadOrderAnimation
{
public:
    /// A selection with more cells than this is shown in this many steps, several cells per
    /// step (consecutive in read order): a 16,384-cell face would otherwise make an hour-long
    /// file of 16,385 frames.
    static constexpr int kMaxSteps = 240;
    static constexpr int kMinStepMs = 10;
    static constexpr int kMaxStepMs = 10000;
    static constexpr int kDefaultStepMs = 250;
    /// The finished picture stays this long before the animation starts again.
    static constexpr int kHoldMs = 2000;

    /// Plans the frames of `view` as it is now (its picture, its read order), one step every
    /// `stepMs` milliseconds.
    ReadOrderAnimation(const TensorView& view, int stepMs);

    /// Frames: the first with nothing lit, then one per step.
    int frameCount() const { return int(m_revealUpTo.size()); }
    /// Frame k lights the cells read up to this position (-1: none).
    std::int64_t revealUpTo(int frame) const { return m_revealUpTo[std::size_t(frame)]; }
    /// How long frame k shows.
    int delayMs(int frame) const;
    /// Cells lit per step (1 unless the selection has more than kMaxSteps cells).
    std::int64_t cellsPerStep() const { return m_cellsPerStep; }

    /// Writes the animation: `path` ending in .png or .apng is an animated PNG; a path ending
    /// in "/" or naming a directory gets the numbered frames (earlier frame-NNNN.png beyond the
    /// new count are removed, so the directory holds one sequence). Atomic per file; on failure
    /// nothing written is left. False with `error` on failure (no selected cells, a heat map, a
    /// bad step, an unwritable path).
    bool write(const QString& path, QString* error) const;

    /// Whether `path` asks for an animation this class can write.
    static bool isAnimationPath(const QString& path);

private:
    bool writeApng(const QString& path, QString* error) const;
    bool writeFrames(const QString& dir, QString* error) const;
    bool check(QString* error) const;

    const TensorView& m_view;
    int m_stepMs;
    std::int64_t m_cellsPerStep = 1;
    std::vector<std::int64_t> m_revealUpTo;
};

} // namespace ss::ui
