//! Pictures of one position of a game on a point set (marking, constructing, flipping), for the
//! play library ([`crate::play`]): the points and segments as `gamecert render` draws them
//! ([`crate::base::svg`]: the order type kept, labels beside their edges and never struck
//! through), the marked move's segment highlighted in orange, and every legal move's segment a
//! click target (`class="move"`, `data-move="a-b"`). A move that colours or flips an edge of the
//! drawing is clicked on that edge; a move that draws a new segment (the constructing games) is
//! clicked on its faint dotted line.

use crate::base::large_pictures::{points_overview, PointSet};
use crate::base::svg::{text_picture, Frame, Overlay, Sheet, Stroke, MAX_POINTS};
use gamecert_certificates::triangulations::geometry::Point;

/// Where the points of a picture come from: the instance's coordinates, or an abstract convex
/// polygon of `n` vertices (drawn on a circle).
#[derive(Clone, Debug)]
pub enum Points {
    Plane(Vec<Point>),
    ConvexPolygon(usize),
}

impl Points {
    fn len(&self) -> usize {
        match self {
            Points::Plane(points) => points.len(),
            Points::ConvexPolygon(n) => *n,
        }
    }
}

/// One position drawn: `strokes` (the drawing's edges, in their colours), `overlay` (the marked
/// segment and the clickable moves), headed by `caption` with `notes` under it.
pub fn position_svg(
    points: &Points,
    strokes: Vec<Stroke>,
    overlay: &Overlay,
    caption: &str,
    notes: &[String],
) -> String {
    if points.len() > MAX_POINTS {
        // Too many to draw with their segments: the points and their hull (issue 48, item 4).
        let set = match points {
            Points::Plane(points) => PointSet::Plane(points),
            Points::ConvexPolygon(n) => PointSet::ConvexPolygon(*n),
        };
        let left_out = format!(
            "The position's {} are left out: its moves are listed beside the picture",
            crate::base::limits::grouped_count(strokes.len(), "segment")
        );
        return points_overview(set, caption, &left_out);
    }
    let mut sheet = match points {
        Points::Plane(points) => Sheet::of_points(points),
        Points::ConvexPolygon(n) => Sheet::of_convex_polygon(*n),
    };
    for note in notes {
        sheet = sheet.with_note(note.clone());
    }
    let frame = Frame { strokes, title: caption.to_string() };
    match sheet.pages(&[frame]).first() {
        Some(page) => page.to_svg_with(overlay),
        None => text_picture("", None, caption),
    }
}
