// SPDX-License-Identifier: GPL-3.0-or-later
// Every colour the ui shows: the light and dark themes (Qt 6.4 has no QStyleHints::colorScheme,
// so dark mode is our own palette), the read-order ramp, text that stays readable on it, and the
// colours with a meaning (ColorRole) beyond the palette's own roles. No other file of ui/ names
// a colour (tests/ui/tst_themecolours.cpp checks it); each role is chosen per theme.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include <array>
#include <functional>

class QApplication;
class QWidget;

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

/// What a colour means. `roleColor` gives the colour for a palette's theme: text roles keep
/// 4.5:1 against the palette's Window and Base, tints keep the palette's Text readable on them.
enum class ColorRole {
    Error,          ///< error text; the one error red, which every error colour derives from
    ErrorTint,      ///< behind an error box's Text (the message strip, the autosave warning)
    ErrorBorder,    ///< the edge of an error box, the outline of a field that does not read
    Warning,        ///< text that says the result on show is stale
    Success,        ///< text that says an answer is right
    NoticeTint,     ///< behind a notice box's Text (the offer to recover a session)
    NoticeBorder,   ///< the edge of a notice box
    Mark,           ///< behind a marked token in rich text (the decode steps' current entry)
    MarkText,       ///< the marked token's text
    LitRow,         ///< a table row lit by the current decode step (translucent over Base)
    CellHalo,       ///< the dark edge of a hovered cell's outline (the same over every ramp colour)
    CellOutline,    ///< the light line inside it
    CellMark,       ///< a cell that differs from an exercise's target
    HeatLow,        ///< a heat map's smallest value
    HeatHigh,       ///< its largest value
    HeatNaN,        ///< a NaN in a heat map
    PictureMatte,   ///< what an exported picture is painted on before the views
    SyntaxName,     ///< getitem's expression: names (x, None, newaxis)
    SyntaxNumber,   ///< numbers
    SyntaxColon,    ///< slice colons
    SyntaxNone,     ///< new axes
    SyntaxEllipsis, ///< the ellipsis
    SyntaxLit,      ///< behind the entries lit by the current decode step
    SyntaxError,    ///< the part that does not parse
};

/// The colour of `role` in `palette`'s theme (dark when isDark(palette)).
QColor roleColor(ColorRole role, const QPalette& palette);
/// The same for the application's theme.
QColor roleColor(ColorRole role);
/// `role`'s colour in the application's theme as a style sheet or rich text takes it
/// ("#rrggbb", or "rgba(r, g, b, a)" when translucent).
QString styleColor(ColorRole role);
/// Calls `apply` now and again whenever the application's theme changes while `widget` lives:
/// for widgets that colour themselves with roles (style sheets and palettes set from them do
/// not follow a theme switch on their own).
void followTheme(QWidget* widget, std::function<void()> apply);
/// The style sheet of a line edit whose text does not read: outlined in ErrorBorder.
QString unreadableFieldStyle();

} // namespace ss::ui
