// SPDX-License-Identifier: GPL-3.0-or-later
// Colours shared by every view: the read-order ramp, text that stays readable on it, the light
// and dark themes (Qt 6.4 has no QStyleHints::colorScheme, so dark mode is our own palette).
#pragma once

#include <QColor>
#include <QPalette>

#include <array>

class QApplication;

namespace ss::ui {

enum class Theme { Light, Dark };

/// Fusion style with the theme's palette, for the whole application.
void applyTheme(QApplication& app, Theme theme);
QPalette themePalette(Theme theme);
/// Whether a palette is a dark one (its window is darker than its text).
bool isDark(const QPalette& palette);

/// Stops of the read-order ramp, first read to last: a viridis-like sequential ramp (dark
/// violet, blue, teal, green, yellow) that stays ordered for every common colour-vision
/// deficiency and in greyscale.
const std::array<QColor, 9>& readOrderStops();
/// The ramp at t in [0, 1] (clamped), interpolated between the stops.
QColor readOrderColor(double t);
/// Black or white, whichever contrasts more with `background` (WCAG relative luminance).
QColor textColorOn(const QColor& background);

/// The tint behind the index labels of a dimension the decode stepper points at.
QColor focusTint(const QPalette& palette);
/// The text colour of those labels.
QColor focusText(const QPalette& palette);

/// The tint behind a row whose stored and computed results disagree (the Model dock); the
/// palette's Text stays readable on it (over 7:1 in both themes).
QColor mismatchTint(const QPalette& palette);

} // namespace ss::ui
