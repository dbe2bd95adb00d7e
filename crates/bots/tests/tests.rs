//! Integration tests of the bots (one test binary, modules in `it/`).

mod it {
    mod bigcheese_panel;
    mod bigcheese_strong;
    mod dalmuti_panel;
    mod learned;
}
