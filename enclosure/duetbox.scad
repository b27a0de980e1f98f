// duetbox enclosure: a finger-jointed box, 3 mm plywood or acrylic (laser) or printed tiles (3D printer).
//
// Every size comes from params.scad, which `make enclosure` writes from hardware/data/box.toml (the same file the
// wiring diagram is drawn from). Choose what to make with -D part="...":
//   2D (SVG/DXF):  top bottom front back left right bezel_face bezel_cheek bezel_back diffuser clamp
//   3D (STL):      tile, with -D tile_of="top" -D tile_rect=... (a piece of a panel that fits the print bed)
//   3D (PNG):      assembly, with -D view="closed"|"exploded"|"inside"|"top_under"|"bezel"|"flat"
// Coordinates: x along seat A's edge (left to right as seat A sees it), y from seat A towards seat B, z up.

include <params.scad>

part = "assembly";
view = "closed";
tile_of = "top";
explode = 0;        // for view="exploded": mm each panel moves out

$fn = 96;           // circles: a multiple of 4, so a hole's width is its diameter
eps = 0.01;

// ------------------------------------------------------------------ derived sizes
W = box_w; D = box_d; H = box_h;

// OLED bezel: a wedge on the top panel, its face tilted oled_tilt degrees towards its seat.
bz_w = oled_board[0] + bezel_margin[0];      // face width
bz_l = oled_board[1] + bezel_margin[1];      // face length along the slope
bz_s = bz_l * cos(oled_tilt);               // footprint depth
bz_h = bz_l * sin(oled_tilt);               // height of the ridge
bz_cheek_x = bz_w / 2 - 2 - T / 2;          // cheeks' centre planes, +-x from the bezel's centre
bz_tab = bezel_tab;                         // cheek tabs into the top panel
bz_tab_u = [bz_s * 0.25, bz_s * 0.75];      // tab centres along the cheek's base
bz_slot = wire_slot;                        // the OLED wires go down through this slot
bz_glass_b = bz_l / 2 - oled_window_offset; // the glass's centre along the slope (pins towards the ridge)

diffuser_d = ring_outer_d + diffuser_margin;
ring_window_d = ring_outer_d + ring_clearance;
clamp_size = clamp;

function seg_count(L) = let(n = max(3, round((L - 2 * T) / finger))) n % 2 == 1 ? n : n + 1;

// ------------------------------------------------------------------ finger joints
// The cut-outs along one edge of a panel, in edge coordinates: t along the edge (0..L), d into the panel (0..T).
// The T-wide strip along every box edge is shared by the two panels meeting there: the interior (T..L-T) is
// cut into an odd number of equal segments, even ones for one panel, odd ones for the other. The corner cubes
// belong to the front and back panels.
module edge_cuts(L, own_even, own_corners) {
    n = seg_count(L);
    s = (L - 2 * T) / n;
    if (!own_corners) {
        translate([-eps, -eps]) square([T + eps, T + eps]);
        translate([L - T, -eps]) square([T + eps, T + eps]);
    }
    for (i = [0 : n - 1])
        if ((i % 2 == 0) != own_even)
            translate([T + i * s, -eps]) square([s, T + eps]);
}

// A rectangular panel L1 x L2 with finger joints on all four edges: own = [own_even, own_corners].
module finger_panel(L1, L2, own) {
    difference() {
        square([L1, L2]);
        edge_cuts(L1, own[0], own[1]);                                          // y = 0
        translate([0, L2]) mirror([0, 1]) edge_cuts(L1, own[0], own[1]);       // y = L2
        multmatrix([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]]) edge_cuts(L2, own[2], own[1]);      // x = 0
        translate([L1, 0]) multmatrix([[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]])
            edge_cuts(L2, own[2], own[1]);                                      // x = L1
    }
}

// Which segments each panel owns: [even ones on its y = 0 and y = L2 edges, the corners, even ones on x = 0, x = L1].
OWN_TOPBOT = [false, false, false];  // top and bottom: odd segments on all four edges
OWN_FRONTBACK = [true, true, true];  // front and back: even segments everywhere, and the corners
OWN_SIDES = [true, false, false];    // left and right: even on top/bottom edges, odd on the vertical edges

// ------------------------------------------------------------------ holes of the top panel
module at_control(c) { translate([c[4], c[5]]) rotate(c[6]) children(); }

module corners4(size) {
    for (sx = [-1, 1], sy = [-1, 1]) translate([sx * size[0] / 2, sy * size[1] / 2]) children();
}

module control_holes(c) {
    kind = c[2];
    if (kind == "joystick") {
        circle(d = joystick_shaft_hole_d);
        corners4(joystick_plate_holes) circle(d = joystick_plate_hole_d);
    } else if (kind == "button") {
        circle(d = c[9]);
    } else if (kind == "ring") {
        circle(d = ring_window_d);
    } else if (kind == "display") {
        square(display_window, center = true);
        corners4(display_mount_holes) circle(d = display_mount_hole_d);
    } else if (kind == "oled") {
        // the bezel's cheek tabs and the slot for the module's four wires
        square(bz_slot, center = true);
        for (sx = [-1, 1], u = bz_tab_u)
            translate([sx * bz_cheek_x, -bz_s / 2 + u]) square([T, bz_tab], center = true);
    }
}

module top_2d() {
    difference() {
        finger_panel(W, D, OWN_TOPBOT);
        for (c = controls) at_control(c) control_holes(c);
    }
}

// ------------------------------------------------------------------ bottom, walls
pi_holes_at = [for (sx = [-1, 1], sy = [-1, 1]) [pi_pos[0] + sx * board_holes[0] / 2, pi_pos[1] + sy * board_holes[1] / 2]];
cb = corner_block / 2;
bottom_screws_at = [for (x = [T + cb, W - T - cb], y = [T + cb, D - T - cb]) [x, y]];
vent_slots_bottom = [for (i = [-2 : 2]) [pi_pos[0], pi_pos[1] + i * 9]];   // under the Pi
tie_slots_at = [[pi_pos[0], 85], [pi_pos[0], D - 85], [W - 110, 85], [W - 110, D - 85]];

module rounded_slot(size) {   // a slot with round ends, size = [length, width]
    hull() for (sx = [-1, 1]) translate([sx * (size[0] - size[1]) / 2, 0]) circle(d = size[1]);
}

module bottom_2d() {
    difference() {
        finger_panel(W, D, OWN_TOPBOT);
        for (p = pi_holes_at) translate(p) circle(d = board_hole_d);
        for (p = bottom_screws_at) translate(p) circle(d = bottom_screw_d);
        for (p = vent_slots_bottom) translate(p) rounded_slot(bottom_vent_slot);
        // cable-tie slot pairs along the two harnesses
        for (p = tie_slots_at, sx = [-1, 1]) translate([p[0] + sx * 5, p[1]]) square(tie_slot, center = true);
    }
}

module front_2d() { finger_panel(W, H, OWN_FRONTBACK); }
module back_2d() { finger_panel(W, H, OWN_FRONTBACK); }

vent_slots_left = [for (g = [[45, 115], [185, 255]], u = [g[0] : 10 : g[1]]) [u, H / 2]];
vent_slots_right = [for (u = [185 : 10 : 255]) [u, H / 2]];

module vents(at) { for (p = at) translate(p) rotate(90) rounded_slot(vent_slot); }

// The speaker's grille: holes on a hexagonal grid, all inside the grille circle (the cone's front).
grille_rows = ceil(speaker_grille_d / speaker_grille_pitch);
grille_at = [for (j = [-grille_rows : grille_rows], i = [-grille_rows : grille_rows])
    let(p = [(i + (abs(j) % 2) / 2) * speaker_grille_pitch, j * speaker_grille_pitch * sqrt(3) / 2])
    if (norm(p) + speaker_grille_hole_d / 2 <= speaker_grille_d / 2) p];

module left_2d() {
    difference() {
        finger_panel(D, H, OWN_SIDES);
        vents(vent_slots_left);
        for (p = grille_at) translate(speaker_pos + p) circle(d = speaker_grille_hole_d, $fn = 24);
    }
}

module right_2d() {
    difference() {
        finger_panel(D, H, OWN_SIDES);
        vents(vent_slots_right);
        translate(power_inlet_pos) {
            rounded_slot(power_inlet_cutout);
            for (sx = [-1, 1]) translate([sx * power_inlet_screws / 2, 0]) circle(d = power_inlet_screw_d);
        }
    }
}

// ------------------------------------------------------------------ small parts
module bezel_face_2d() {       // a = across (0..bz_w), b = up the slope (0..bz_l)
    difference() {
        square([bz_w, bz_l]);
        translate([bz_w / 2, bz_glass_b]) square(oled_window, center = true);
        translate([bz_w / 2, bz_l / 2]) corners4(oled_holes) circle(d = oled_hole_d);
    }
}

// u along the base (0..bz_s, towards the ridge), v up. The tabs go through the top panel and reach
// bezel_pin[1] below it, where a 2 mm pin through both cheeks' tabs locks the bezel: it lifts off for service.
bz_tab_depth = T + bezel_pin[1];
module bezel_cheek_2d() {
    difference() {
        union() {
            polygon([[0, 0], [bz_s, 0], [bz_s, bz_h]]);
            for (u = bz_tab_u) translate([u - bz_tab / 2, -bz_tab_depth]) square([bz_tab, bz_tab_depth + eps]);
        }
        for (u = bz_tab_u) translate([u, -T - bezel_pin[1] / 2]) circle(d = bezel_pin[0], $fn = 24);
    }
}

module bezel_back_2d() { square([bz_w, bz_h]); }

module diffuser_2d() { circle(d = diffuser_d); }

module clamp_2d() {
    difference() {
        translate([-clamp_size[0] / 2, -clamp_size[1] / 2]) square(clamp_size);
        translate([-clamp_size[0] / 2 + 6, 0]) circle(d = display_mount_hole_d);
    }
}

module panel_2d(name) {
    if (name == "top") top_2d();
    else if (name == "bottom") bottom_2d();
    else if (name == "front") front_2d();
    else if (name == "back") back_2d();
    else if (name == "left") left_2d();
    else if (name == "right") right_2d();
    else if (name == "bezel_face") bezel_face_2d();
    else if (name == "bezel_cheek") bezel_cheek_2d();
    else if (name == "bezel_back") bezel_back_2d();
    else if (name == "diffuser") diffuser_2d();
    else if (name == "clamp") clamp_2d();
    else assert(false, str("unknown part ", name));
}

// What a laser cuts: the outline grown by kerf/2 (holes shrink by kerf/2), so the finished part is true to size.
module cut_2d(name) { offset(delta = kerf / 2) panel_2d(name); }

function panel_size(name) =
    name == "top" || name == "bottom" ? [W, D] :
    name == "front" || name == "back" ? [W, H] :
    name == "left" || name == "right" ? [D, H] :
    name == "bezel_face" ? [bz_w, bz_l] : name == "bezel_cheek" ? [bz_s, bz_h] :
    name == "bezel_back" ? [bz_w, bz_h] : name == "diffuser" ? [diffuser_d, diffuser_d] : clamp_size;

// ------------------------------------------------------------------ printed tiles
// A panel larger than the bed is cut into tiles by enclosure/export.py (hardware/cutplan.py), which places every
// seam and every dovetail clear of the panel's holes, read back from its laser SVG. One tile is
// -D tile_of="top" -D tile_rect=[x0, y0, x1, y1] -D tile_tails=[[x, y, angle], ...] -D tile_sockets=[...].
dt = dovetail;   // dovetail: neck width, depth
tile_rect = [-50, -50, 500, 500];
tile_tails = [];
tile_sockets = [];

module dovetail(c) {   // pointing +x, centred on the seam at the origin; c grows it (clearance)
    offset(delta = c) polygon([[-eps, -dt[0] / 2], [dt[1], -dt[0] / 2 - 2], [dt[1], dt[0] / 2 + 2], [-eps, dt[0] / 2]]);
}

// The tile's rectangle, plus its dovetails into its neighbours, minus the neighbours' dovetails grown by the
// clearance.
module tile_region(rect, tails, sockets) {
    difference() {
        union() {
            translate([rect[0], rect[1]]) square([rect[2] - rect[0], rect[3] - rect[1]]);
            for (d = tails) translate([d[0], d[1]]) rotate(d[2]) dovetail(0);
        }
        for (d = sockets) translate([d[0], d[1]]) rotate(d[2]) dovetail(print_clearance);
    }
}

module tile_3d(name) {
    linear_extrude(T) intersection() { panel_2d(name); tile_region(tile_rect, tile_tails, tile_sockets); }
}

// ------------------------------------------------------------------ assembly
wood = [0.87, 0.72, 0.52];
wood_dark = [0.78, 0.62, 0.43];

module place_top() { translate([0, 0, H - T]) children(); }
module place_front() { translate([0, T, 0]) rotate([90, 0, 0]) children(); }
module place_back() { translate([0, D, 0]) rotate([90, 0, 0]) children(); }
module place_left() { rotate([90, 0, 90]) children(); }
module place_right() { translate([W - T, 0, 0]) rotate([90, 0, 90]) children(); }

function colour_of(f) = [for (c = wire_colours) if (c[0] == f) c[1]][0];

module button_3d(d, col) {
    color(col) { cylinder(d = d + 4, h = 2.5); cylinder(d = d - 6, h = 6); translate([0, 0, 4]) scale([1, 1, 0.35]) sphere(d = d - 6); }
    color([0.15, 0.15, 0.15]) translate([0, 0, -T - 28]) cylinder(d = d - 2, h = 28);
    color([0.95, 0.95, 0.95]) translate([-6, -4, -T - 44]) cube([12, 8, 16]);   // microswitch
}

module joystick_3d() {
    color([0.1, 0.1, 0.1]) cylinder(d = 34, h = 1.5);                       // dust washer
    color([0.75, 0.75, 0.78]) cylinder(d = 8, h = 30);
    color([0.85, 0.1, 0.1]) translate([0, 0, 44]) sphere(d = 35);
    color([0.2, 0.2, 0.2]) translate([-joystick_plate[0] / 2, -joystick_plate[1] / 2, -T - 1.6]) cube([joystick_plate[0], joystick_plate[1], 1.6]);
    color([0.15, 0.15, 0.15]) translate([-27, -27, -T - 55]) cube([54, 54, 53]);
}

module oled_module_3d() {      // in the bezel face's frame, behind the face plate (z < 0)
    translate([bz_w / 2, bz_l / 2, 0]) {
        color([0.1, 0.3, 0.6]) translate([-oled_board[0] / 2, -oled_board[1] / 2, -4]) cube([oled_board[0], oled_board[1], 1.6]);
        color([0.05, 0.05, 0.08]) translate([-oled_window[0] / 2 - 2, -bz_l / 2 + bz_glass_b - oled_window[1] / 2 - 2, -2.4]) cube([oled_window[0] + 4, oled_window[1] + 4, 1.5]);
    }
    // what the module shows: its seat's key card (a 5 x 5 grid of bright cells)
    color([0.6, 0.85, 1.0]) translate([bz_w / 2, bz_glass_b, T - 0.5])
        for (i = [0 : 4], j = [0 : 2]) translate([-oled_window[0] / 2 + 2 + i * 4, -oled_window[1] / 2 + 1.5 + j * 3.5, 0]) cube([3, 2.6, 0.6]);
}

// One seat's OLED bezel in its own frame: origin at the footprint's centre on the top surface, face towards -y.
module bezel_3d(e = 0) {
    color(wood_dark) for (sx = [-1, 1]) translate([sx * bz_cheek_x - T / 2, -bz_s / 2, e]) rotate([90, 0, 90]) linear_extrude(T) bezel_cheek_2d();
    translate([-bz_w / 2, -bz_s / 2, 2 * e]) rotate([oled_tilt, 0, 0]) translate([0, 0, 1.5 * e]) {
        color(wood) linear_extrude(T) bezel_face_2d();
        translate([0, 0, -e]) oled_module_3d();
    }
    color(wood) translate([-bz_w / 2, bz_s / 2 + T + e, e]) rotate([90, 0, 0]) linear_extrude(T) bezel_back_2d();
}

function bezel_window(c) = let(
    b = bz_glass_b, n = [0, -sin(oled_tilt), cos(oled_tilt)],
    local = [0, -bz_s / 2 + b * cos(oled_tilt), b * sin(oled_tilt)] + T * n,
    r = c[6], rot = [[cos(r), -sin(r), 0], [sin(r), cos(r), 0], [0, 0, 1]])
    [[c[4], c[5], H] + rot * local, rot * n];

module ring_3d() {
    color([0.96, 0.96, 0.94]) translate([0, 0, -2 * T]) cylinder(d = diffuser_d, h = T);   // diffuser under the window
    // the LEDs as they glow through the diffuser: half of them lit, like a timer half spent
    for (k = [0 : ring_leds - 1]) rotate(90 - k * 360 / ring_leds)
        translate([(ring_outer_d + ring_inner_d) / 4, 0, -T + 0.05]) color(k < ring_leds / 2 ? [1, 0.5, 0.05] : [0.8, 0.8, 0.78]) cylinder(d = 5, h = 0.3, $fn = 24);
    translate([0, 0, -2 * T - 1.7]) color([0.1, 0.1, 0.1]) difference() {
        cylinder(d = ring_outer_d, h = 1.6);
        translate([0, 0, -1]) cylinder(d = ring_inner_d, h = 4);
    }
}

module display_3d() {
    translate([0, 0, -T]) {
        color([0.05, 0.05, 0.06]) translate([-display_outline[0] / 2, -display_outline[1] / 2, -1.6]) cube([display_outline[0], display_outline[1], 1.6]);
        color([0.25, 0.45, 0.75]) translate([-display_window[0] / 2, -display_window[1] / 2, -0.5]) cube([display_window[0], display_window[1], 0.6]);
        color([0.55, 0.55, 0.58]) translate([-display_outline[0] / 2 + 16, -display_outline[1] / 2 + 6, -display_depth]) cube([display_outline[0] - 32, display_outline[1] - 12, display_depth - 1.6]);
        if (display_mount == "clamp")
            for (sx = [-1, 1], sy = [-1, 1]) translate([sx * display_mount_holes[0] / 2, sy * display_mount_holes[1] / 2, -4.6])
                rotate(atan2(sy, sx) + 180) translate([clamp_size[0] / 2 - 6, 0, 0]) color(wood_dark) linear_extrude(T) clamp_2d();
    }
}

module top_parts_3d(e = 0) {
    for (c = controls) translate([c[4], c[5], H]) rotate(c[6]) {
        if (c[2] == "joystick") joystick_3d();
        else if (c[2] == "button")
            button_3d(c[9], c[8][0] == "menu" ? [0.95, 0.8, 0.1] : c[8][0] == "stop" ? [0.85, 0.12, 0.1] : [0.2, 0.75, 0.25]);
        else if (c[2] == "oled") bezel_3d(e);
        else if (c[2] == "ring") ring_3d();
        else if (c[2] == "display") display_3d();
    }
}

module pi_3d() {
    bw = board_board;
    x0 = pi_pos[0] - board_holes[0] / 2 - 3.5; y0 = pi_pos[1] - board_holes[1] / 2 - 3.5;
    for (p = pi_holes_at) color([0.8, 0.7, 0.3]) translate([p[0], p[1], T]) cylinder(d = 5, h = board_standoff, $fn = 6);
    translate([x0, y0, T + board_standoff]) {
        color([0.1, 0.5, 0.2]) cube([bw[0], bw[1], 1.6]);
        color([0.2, 0.2, 0.2]) translate([7, bw[1] - 6, 1.6]) cube([51, 5, 8.5]);             // GPIO header
        color([0.75, 0.75, 0.78]) translate([bw[0] - 20, 2, 1.6]) cube([21, 15, 13]);          // Ethernet
        color([0.75, 0.75, 0.78]) for (yy = [22, 40]) translate([bw[0] - 17, yy, 1.6]) cube([18, 13, 15]);   // USB
    }
}

// The sound: the speaker behind its grille on the left wall, the amplifier board on the bottom near it.
module sound_3d() {
    translate([T, speaker_pos[0], speaker_pos[1]]) rotate([0, 90, 0]) {
        color([0.15, 0.15, 0.15]) cylinder(d = speaker_outer_d, h = 4);
        color([0.6, 0.6, 0.62]) translate([0, 0, 4]) cylinder(d1 = speaker_outer_d * 0.7, d2 = 14, h = 9);
    }
    color([0.1, 0.3, 0.6]) translate([amp_pos[0] - amp_board[0] / 2, amp_pos[1] - amp_board[1] / 2, T]) cube([amp_board[0], amp_board[1], 1.6]);
    color([0.1, 0.55, 0.2]) translate([amp_pos[0] - 5, amp_pos[1] + amp_board[1] / 2 - 5, T + 1.6]) cube([10, 5, 8]);
}

header_at = [pi_pos[0] - board_holes[0] / 2 - 3.5 + 32, pi_pos[1] - board_holes[1] / 2 - 3.5 + board_board[1] - 3.5, T + board_standoff + 10];

module wire(points, col) {
    color(col) for (i = [0 : len(points) - 2]) hull() { translate(points[i]) sphere(d = 1.8, $fn = 8); translate(points[i + 1]) sphere(d = 1.8, $fn = 8); }
}

// The wiring harness, one wire per function of each control, in the wiring diagram's colours: down from the
// header to the floor, along the floor (through the cable-tie slots) to below the control, then up to it.
function route_y(c) = c[1] == "A" ? tie_slots_at[0][1] : c[1] == "B" ? tie_slots_at[1][1] : c[5];

module harness_3d() {
    for (ci = [0 : len(controls) - 1]) let(c = controls[ci]) if (len(c[8]) > 0)
        for (k = [0 : len(c[8]) - 1]) let(
            off = (ci * 2 + k) * 2.0 - 22,
            start = header_at + [off, 0, 0],
            low = T + 2 + k * 2,
            ry = route_y(c) + (ci % 4) * 2.5 + k * 2,
            tx = c[4] + (k - len(c[8]) / 2) * 3,
            top = c[2] == "oled" ? H - T : c[2] == "ring" ? H - 2 * T - 1.6 : H - T - 30)
            wire([start, [start[0], start[1], low], [start[0], ry, low], [tx, ry, low], [tx, c[5], low],
                  [tx, c[5], top]], colour_of(c[8][k]));
}

module box_3d(e = 0, show_top = true) {
    color(wood) translate([0, 0, -e]) linear_extrude(T) bottom_2d();
    color(wood_dark) translate([0, -e, 0]) place_front() linear_extrude(T) front_2d();
    color(wood_dark) translate([0, e, 0]) place_back() linear_extrude(T) back_2d();
    color(wood) translate([-e, 0, 0]) place_left() linear_extrude(T) left_2d();
    color(wood) translate([e, 0, 0]) place_right() linear_extrude(T) right_2d();
    if (show_top) translate([0, 0, 2 * e]) {
        color(wood) place_top() linear_extrude(T) top_2d();
        top_parts_3d(e / 4);
    }
    translate([0, 0, -e]) pi_3d();
    translate([0, 0, -e]) sound_3d();
    translate([0, 0, -e]) corner_blocks_3d();
}

// The corner blocks: 10 x 10 mm strip in each inside corner, standing on the bottom panel (so they never
// block it) and 1 mm short of the top; the bottom's four screws go up into them.
corner_block_length = H - 2 * T - 1;
module corner_blocks_3d() {
    for (p = bottom_screws_at) color([0.8, 0.66, 0.45])
        translate([p[0] - corner_block / 2, p[1] - corner_block / 2, T]) cube([corner_block, corner_block, corner_block_length]);
}

module flat_layout() {   // every part to cut, laid out flat (the cutting step's picture)
    g = 12;
    color(wood) {
        linear_extrude(T) top_2d();
        translate([W + g, 0]) linear_extrude(T) bottom_2d();
        translate([0, D + g]) linear_extrude(T) front_2d();
        translate([W + g, D + g]) linear_extrude(T) back_2d();
        translate([0, D + H + 2 * g]) linear_extrude(T) left_2d();
        translate([D + g, D + H + 2 * g]) linear_extrude(T) right_2d();
        for (k = [0, 1]) translate([2 * D + 2 * g + k * (bz_w + g), D + H + 2 * g]) {
            linear_extrude(T) bezel_face_2d();
            translate([0, bz_l + g]) linear_extrude(T) bezel_back_2d();
            translate([0, bz_l + bz_h + 2 * g + T]) linear_extrude(T) bezel_cheek_2d();
            translate([bz_s / 2 + 8, bz_l + bz_h + 2 * g + T]) linear_extrude(T) bezel_cheek_2d();
        }
        for (k = [0 : 3]) translate([2 * D + 2 * g + 2 * (bz_w + g) + 20, D + H + 2 * g + 10 + k * (clamp_size[1] + 6)]) linear_extrude(T) clamp_2d();
    }
    color([0.95, 0.95, 0.93]) translate([2 * D + 2 * g + 2 * (bz_w + g) + diffuser_d / 2 + 50, D + H + 2 * g + diffuser_d / 2]) linear_extrude(T) diffuser_2d();
}

// The ring's corner of the top panel with the diffuser and the ring below it, pulled apart.
module ring_stack(e) {
    c = [for (c = controls) if (c[2] == "ring") c][0];
    a = diffuser_d + 30;
    color(wood) translate([0, 0, -T]) linear_extrude(T) intersection() {
        translate([-c[4], -c[5]]) top_2d();
        square([a, a], center = true);
    }
    color([0.96, 0.96, 0.94]) translate([0, 0, -2 * T - e]) cylinder(d = diffuser_d, h = T);
    translate([0, 0, -2 * T - 1.6 - 2 * e]) {
        color([0.1, 0.1, 0.1]) difference() {
            cylinder(d = ring_outer_d, h = 1.6);
            translate([0, 0, -1]) cylinder(d = ring_inner_d, h = 4);
        }
        for (k = [0 : ring_leds - 1]) rotate(90 - k * 360 / ring_leds)
            translate([(ring_outer_d + ring_inner_d) / 4, 0, 2.4]) color(k == 0 ? [1, 0.2, 0.1] : [0.95, 0.95, 0.9]) cube([5, 5, 1.6], center = true);
    }
}

// Seen from the side (from seat A's left): the sight lines of both seats to seat A's OLED. Seat A looks at it
// almost square on (green); seat B's line (red) meets the back of the bezel.
module privacy_view() {
    box_3d(0);
    ca = [for (c = controls) if (c[0] == "A.oled") c][0];
    w = bezel_window(ca);
    eye_a = [ca[4], -350, 450]; eye_b = [ca[4], D + 350, 450];
    color([0.1, 0.7, 0.2]) hull() { translate(eye_a) sphere(d = 6); translate(w[0]) sphere(d = 6); }
    // seat B's line stops at the plane of the bezel's back
    yb = ca[5] + bz_s / 2 + T;
    f = (eye_b[1] - yb) / (eye_b[1] - w[0][1]);
    hit = eye_b + f * (w[0] - eye_b);
    color([0.85, 0.1, 0.1]) hull() { translate(eye_b) sphere(d = 6); translate(hit) sphere(d = 6); }
    for (e = [eye_a, eye_b]) color([0.2, 0.2, 0.2]) translate(e) sphere(d = 30);
}

module assembly() {
    if (view == "closed") box_3d(0);
    else if (view == "exploded") box_3d(explode == 0 ? 45 : explode);
    else if (view == "inside") { box_3d(0, show_top = false); harness_3d(); }
    else if (view == "top_under")   // the top panel lying face down on the table, as it is while you fit it out
        translate([0, D, H]) rotate([180, 0, 0]) { color(wood) place_top() linear_extrude(T) top_2d(); top_parts_3d(); }
    else if (view == "bezel") bezel_3d(explode == 0 ? 12 : explode);
    else if (view == "flat") flat_layout();
    else if (view == "ring") ring_stack(explode == 0 ? 14 : explode);
    else if (view == "privacy") privacy_view();
    for (c = controls) if (c[2] == "oled") echo(oled_window = c[1], centre_normal = bezel_window(c));
}

// ------------------------------------------------------------------ what to make
if (part == "assembly") assembly();
else if (part == "tile") tile_3d(tile_of);
else cut_2d(part);
