//! What the suite holds: each problem's name, class, dimension, constraint counts, box,
//! budget and best-known value.
//!
//! The dimensions, boxes and constraint counts are `Cal_par.m`'s, except where the
//! organisers' `cec20_func.m` returns a different number of inequalities than
//! `Cal_par.m` declares (RC17: 4, not 3; RC21: 8, not 7; RC44: 91, not 105). The counts
//! here are those of the formulas — every returned constraint is a real design constraint
//! (the spring's outer-diameter limit, the clutch's non-negative stopping time, the
//! wind farm's 91 spacing pairs the code forms) — so the mean violation divides by the
//! number of constraints actually evaluated. Best-known values: Table 4 of the
//! competition's guidelines.

/// The six application areas of the suite, as the guidelines group the problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Class {
    /// RC01–RC07: heat-exchanger networks, alkylation, reactor network, pooling, separation.
    IndustrialChemical,
    /// RC08–RC14: process synthesis and design (mixed-integer).
    ProcessDesign,
    /// RC15–RC33: speed reducer, springs, pressure vessel, gears, trusses, bearings, topology.
    Mechanical,
    /// RC34–RC44: distributed generation, optimal power flow, microgrids, wind farm layout.
    PowerSystem,
    /// RC45–RC50: synchronous optimal pulse-width modulation of multi-level inverters.
    PowerElectronic,
    /// RC51–RC57: beef and dairy cattle feed rations.
    LivestockFeed,
}

impl Class {
    /// The class of problem `k` (1–57).
    #[must_use]
    pub fn of(k: usize) -> Option<Self> {
        Some(match k {
            1..=7 => Self::IndustrialChemical,
            8..=14 => Self::ProcessDesign,
            15..=33 => Self::Mechanical,
            34..=44 => Self::PowerSystem,
            45..=50 => Self::PowerElectronic,
            51..=57 => Self::LivestockFeed,
            _ => return None,
        })
    }

    /// The guidelines' heading of the class.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::IndustrialChemical => "Industrial chemical processes",
            Self::ProcessDesign => "Process synthesis and design",
            Self::Mechanical => "Mechanical engineering",
            Self::PowerSystem => "Power system",
            Self::PowerElectronic => "Power electronic",
            Self::LivestockFeed => "Livestock feed ration",
        }
    }

    /// All six classes in the suite's order.
    pub const ALL: [Self; 6] = [
        Self::IndustrialChemical,
        Self::ProcessDesign,
        Self::Mechanical,
        Self::PowerSystem,
        Self::PowerElectronic,
        Self::LivestockFeed,
    ];
}

/// Static facts about one problem.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProblemInfo {
    /// The problem number `k` (RC`k`).
    pub id: usize,
    /// The guidelines' name.
    pub name: &'static str,
    /// The search-space dimension `D`.
    pub dim: usize,
    /// The number of inequality constraints `g_i ≤ 0` the formulas return.
    pub inequalities: usize,
    /// The number of equality constraints `h_j = 0`.
    pub equalities: usize,
    /// The best-known feasible objective value `f(x*)` (guidelines, Table 4).
    pub best_known: f64,
}

impl ProblemInfo {
    /// The problem's class.
    #[must_use]
    pub fn class(&self) -> Class {
        Class::of(self.id).expect("ids in the catalog are 1-57")
    }

    /// The label `RC01` … `RC57`.
    #[must_use]
    pub fn label(&self) -> String {
        format!("RC{:02}", self.id)
    }

    /// The competition's budget for this problem ([`max_fes`]).
    #[must_use]
    pub fn max_fes(&self) -> usize {
        max_fes(self.dim)
    }
}

/// The competition's budget `MaxFEs` by dimension: `10⁵` for `D ≤ 10`, `2·10⁵` for
/// `D ≤ 30`, `4·10⁵` for `D ≤ 50`, `8·10⁵` for `D ≤ 150`, `10⁶` above. (The score's
/// weights by dimension are `bench_stats::cec2020::dimension_weight`.)
#[must_use]
pub fn max_fes(dim: usize) -> usize {
    match dim {
        0..=10 => 100_000,
        11..=30 => 200_000,
        31..=50 => 400_000,
        51..=150 => 800_000,
        _ => 1_000_000,
    }
}

/// The number of problems.
pub const COUNT: usize = 57;

const fn p(
    id: usize,
    name: &'static str,
    dim: usize,
    inequalities: usize,
    equalities: usize,
    best_known: f64,
) -> ProblemInfo {
    ProblemInfo {
        id,
        name,
        dim,
        inequalities,
        equalities,
        best_known,
    }
}

static CATALOG: [ProblemInfo; COUNT] = [
    p(1, "Heat exchanger network design (case 1)", 9, 0, 8, 1.8931162966E+02),
    p(2, "Heat exchanger network design (case 2)", 11, 0, 9, 7.0490369540E+03),
    p(3, "Optimal operation of alkylation unit", 7, 14, 0, -4.5291197395E+03),
    p(4, "Reactor network design", 6, 1, 4, -3.8826043623E-01),
    p(5, "Haverly's pooling problem", 9, 2, 4, -4.0000560000E+02),
    p(6, "Blending-pooling-separation problem", 38, 0, 32, 1.8638304088E+00),
    p(7, "Propane, isobutane, n-butane nonsharp separation", 48, 0, 38, 1.5670451000E+00),
    p(8, "Process synthesis problem", 2, 2, 0, 2.0000000000E+00),
    p(9, "Process synthesis and design problem", 3, 1, 1, 2.5576545740E+00),
    p(10, "Process flow sheeting problem", 3, 3, 0, 1.0765430833E+00),
    p(11, "Two-reactor problem", 7, 4, 4, 9.9238463653E+01),
    p(12, "Process synthesis problem", 7, 9, 0, 2.9248305537E+00),
    p(13, "Process design problem", 5, 3, 0, 2.6887000000E+04),
    p(14, "Multi-product batch plant", 10, 10, 0, 5.3638942722E+04),
    p(15, "Weight minimization of a speed reducer", 7, 11, 0, 2.9944244658E+03),
    p(16, "Optimal design of industrial refrigeration system", 14, 15, 0, 3.2213000814E-02),
    p(17, "Tension/compression spring design (case 1)", 3, 4, 0, 1.2665232788E-02),
    p(18, "Pressure vessel design", 4, 4, 0, 5.8853327736E+03),
    p(19, "Welded beam design", 4, 5, 0, 1.6702177263E+00),
    p(20, "Three-bar truss design problem", 2, 3, 0, 2.6389584338E+02),
    p(21, "Multiple disk clutch brake design problem", 5, 8, 0, 2.3524245790E-01),
    p(22, "Planetary gear train design optimization problem", 9, 10, 1, 5.2576870748E-01),
    p(23, "Step-cone pulley problem", 5, 8, 3, 1.6069868725E+01),
    p(24, "Robot gripper problem", 7, 7, 0, 2.5287918415E+00),
    p(25, "Hydro-static thrust bearing design problem", 4, 7, 0, 1.6161197651E+03),
    p(26, "Four-stage gear box problem", 22, 86, 0, 3.5359231973E+01),
    p(27, "10-bar truss design", 10, 3, 0, 5.2445076066E+02),
    p(28, "Rolling element bearing", 10, 9, 0, 1.4614135715E+04),
    p(29, "Gas transmission compressor design", 4, 1, 0, 2.9648954173E+06),
    p(30, "Tension/compression spring design (case 2)", 3, 8, 0, 2.6138840583E+00),
    p(31, "Gear train design problem", 4, 1, 1, 0.0000000000E+00),
    p(32, "Himmelblau's function", 5, 6, 0, -3.0665538672E+04),
    p(33, "Topology optimization", 30, 30, 0, 2.6393464970E+00),
    p(34, "Optimal sizing of single-phase distributed generation with reactive power support for phase balancing", 118, 0, 108, 0.0000000000E+00),
    p(35, "Optimal sizing of distributed generation for active power loss minimization", 153, 0, 148, 7.9963854000E-02),
    p(36, "Optimal sizing of distributed generation and capacitors for reactive power loss minimization", 158, 0, 148, 4.7733529000E-02),
    p(37, "Optimal power flow (minimization of active power loss)", 126, 0, 116, 1.8593563000E-02),
    p(38, "Optimal power flow (minimization of fuel cost)", 126, 0, 116, 2.7139366000E+00),
    p(39, "Optimal power flow (minimization of active power loss and fuel cost)", 126, 0, 116, 2.7515909000E+00),
    p(40, "Microgrid power flow (islanded case)", 76, 0, 76, 0.0000000000E+00),
    p(41, "Microgrid power flow (grid-connected case)", 74, 0, 74, 0.0000000000E+00),
    p(42, "Optimal setting of droop controller for minimization of active power loss in islanded microgrids", 86, 0, 76, 7.7027102000E-02),
    p(43, "Optimal setting of droop controller for minimization of reactive power loss in islanded microgrids", 86, 0, 76, 7.9835970000E-02),
    p(44, "Wind farm layout problem", 30, 91, 0, -6.2731715000E+03),
    p(45, "SOPWM for 3-level inverters", 25, 24, 1, 3.0739360000E-02),
    p(46, "SOPWM for 5-level inverters", 25, 24, 1, 2.0240335000E-02),
    p(47, "SOPWM for 7-level inverters", 25, 24, 1, 1.2783068000E-02),
    p(48, "SOPWM for 9-level inverters", 30, 29, 1, 1.6787535766E-02),
    p(49, "SOPWM for 11-level inverters", 30, 29, 1, 9.3118741800E-03),
    p(50, "SOPWM for 13-level inverters", 30, 29, 1, 1.5051470000E-02),
    p(51, "Beef cattle (case 1)", 59, 14, 1, 4.5508511497E+03),
    p(52, "Beef cattle (case 2)", 59, 14, 1, 3.3489821493E+03),
    p(53, "Beef cattle (case 3)", 59, 14, 1, 4.9976069290E+03),
    p(54, "Beef cattle (case 4)", 59, 14, 1, 4.2405482538E+03),
    p(55, "Dairy cattle (case 1)", 64, 0, 6, 6.6964145128E+03),
    p(56, "Dairy cattle (case 2)", 64, 0, 6, 1.4746580000E+04),
    p(57, "Dairy cattle (case 3)", 64, 0, 6, 3.2132917019E+03),
];

/// The facts about problem `k` (1–57), or `None`.
#[must_use]
pub fn info(k: usize) -> Option<&'static ProblemInfo> {
    k.checked_sub(1).and_then(|i| CATALOG.get(i))
}

/// All 57 problems in order.
#[must_use]
pub fn all() -> &'static [ProblemInfo] {
    &CATALOG
}

/// The box `[lb, ub]` of problem `k` (1–57), as `Cal_par.m` sets it.
#[must_use]
#[allow(clippy::approx_constant)] // RC24's bound 3.14 is the organisers' number, not π
pub fn bounds(k: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = info(k)?.dim;
    let fill = |lo: f64, hi: f64| (vec![lo; n], vec![hi; n]);
    let v = |a: &[f64]| a.to_vec();
    Some(match k {
        1 => (
            v(&[0., 0., 0., 0., 1000., 0., 100., 100., 100.]),
            v(&[10., 200., 100., 200., 2_000_000., 600., 600., 600., 900.]),
        ),
        2 => (
            v(&[1e4, 1e4, 1e4, 0., 0., 0., 100., 100., 100., 100., 100.]),
            v(&[
                0.819e6, 1.131e6, 2.05e6, 0.05074, 0.05074, 0.05074, 200., 300., 300., 300., 400.,
            ]),
        ),
        3 => (
            v(&[1000., 0., 2000., 0., 0., 0., 0.]),
            v(&[2000., 100., 4000., 100., 100., 20., 200.]),
        ),
        4 => (
            v(&[0., 0., 0., 0., 1e-5, 1e-5]),
            v(&[1., 1., 1., 1., 16., 16.]),
        ),
        5 => (
            vec![0.; 9],
            v(&[100., 200., 100., 100., 100., 100., 200., 100., 200.]),
        ),
        6 => (
            vec![0.; 38],
            v(&[
                90., 150., 90., 150., 90., 90., 150., 90., 90., 90., 150., 150., 90., 90., 150.,
                90., 150., 90., 150., 90., 1., 1.2, 1., 1., 1., 0.5, 1., 1., 0.5, 0.5, 0.5, 1.2,
                0.5, 1.2, 1.2, 0.5, 1.2, 1.2,
            ]),
        ),
        7 => {
            let mut lb = vec![0.; 48];
            for i in [24, 26, 28, 31] {
                lb[i - 1] = 0.849999;
            }
            let mut ub = vec![1.; 48];
            ub[3] = 140.;
            for i in [25, 27, 32, 35, 37, 29] {
                ub[i - 1] = 30.;
            }
            for i in [2, 3, 5, 13, 14, 15] {
                ub[i - 1] = 90.;
            }
            for i in [1, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18, 19, 20] {
                ub[i - 1] = 35.;
            }
            (lb, ub)
        }
        8 => (v(&[0., -0.51]), v(&[1.6, 1.49])),
        9 => (v(&[0.5, 0.5, -0.51]), v(&[1.4, 1.4, 1.49])),
        10 => (v(&[0.2, -2.22554, -0.51]), v(&[1., -1., 1.49])),
        11 => (
            v(&[0., 0., 0., 0., -0.51, -0.51, 0.]),
            v(&[20., 20., 10., 10., 1.49, 1.49, 40.]),
        ),
        12 => (
            v(&[0., 0., 0., -0.51, -0.51, -0.51, -0.51]),
            v(&[100., 100., 100., 1.49, 1.49, 1.49, 1.49]),
        ),
        13 => (
            v(&[27., 27., 27., 77.51, 32.51]),
            v(&[45., 45., 45., 102.49, 45.49]),
        ),
        14 => (
            v(&[0.51, 0.51, 0.51, 250., 250., 250., 6., 4., 40., 10.]),
            v(&[3.49, 3.49, 3.49, 2500., 2500., 2500., 20., 16., 700., 450.]),
        ),
        15 => (
            v(&[2.6, 0.7, 17., 7.3, 7.3, 2.9, 5.]),
            v(&[3.6, 0.8, 28., 8.3, 8.3, 3.9, 5.5]),
        ),
        16 => fill(0.001, 5.),
        17 => (v(&[0.05, 0.25, 2.00]), v(&[2., 1.3, 15.0])),
        18 => (v(&[0.51, 0.51, 10., 10.]), v(&[99.49, 99.49, 200., 200.])),
        19 => (v(&[0.125, 0.1, 0.1, 0.1]), v(&[2., 10., 10., 2.])),
        20 => fill(0., 1.),
        21 => (v(&[60., 90., 1., 0., 2.]), v(&[80., 110., 3., 1000., 9.])),
        22 => (
            v(&[16.51, 13.51, 13.51, 16.51, 13.51, 47.51, 0.51, 0.51, 0.51]),
            v(&[96.49, 54.49, 51.49, 46.49, 51.49, 124.49, 3.49, 6.49, 6.49]),
        ),
        23 => (vec![0.; 5], v(&[60., 60., 90., 90., 90.])),
        24 => (
            v(&[10., 10., 100., 0., 10., 100., 1.]),
            v(&[150., 150., 200., 50., 150., 300., 3.14]),
        ),
        25 => (v(&[1., 1., 1e-6, 1.]), v(&[16., 16., 16. * 1e-6, 16.])),
        26 => {
            let mut lb = vec![6.51; 8];
            lb.extend([0.51; 14]);
            let mut ub = vec![76.49; 8];
            ub.extend([4.49; 4]);
            ub.extend([9.49; 10]);
            (lb, ub)
        }
        27 => fill(0.645e-4, 50e-4),
        28 => (
            v(&[125., 10.5, 4.51, 0.515, 0.515, 0.4, 0.6, 0.3, 0.02, 0.6]),
            v(&[150., 31.5, 50.49, 0.6, 0.6, 0.5, 0.7, 0.4, 0.1, 0.85]),
        ),
        29 => (v(&[20., 1., 20., 0.1]), v(&[50., 10., 50., 60.])),
        30 => (v(&[0.51, 0.6, 0.51]), v(&[70.49, 3., 42.49])),
        31 => fill(12., 60.),
        32 => (
            v(&[78., 33., 27., 27., 27.]),
            v(&[102., 45., 45., 45., 45.]),
        ),
        33 => fill(0.001, 1.),
        34..=36 | 41 => fill(-1., 1.),
        37..=39 => {
            let (mut lb, ub) = fill(-1., 1.);
            lb[116..126].fill(0.);
            (lb, ub)
        }
        40 => {
            let (mut lb, mut ub) = fill(-1., 1.);
            lb[74..76].fill(0.);
            ub[74..76].fill(2.);
            (lb, ub)
        }
        42 | 43 => {
            let (mut lb, mut ub) = fill(-1., 1.);
            lb[74..86].fill(0.);
            ub[74..76].fill(2.);
            ub[76..86].fill(500.);
            (lb, ub)
        }
        44 => fill(40., 1960.),
        45..=50 => fill(0., 90.),
        51..=57 => fill(0., 10.),
        _ => return None,
    })
}
