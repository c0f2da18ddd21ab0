"""The terminal front: `felt play holdem` and `felt play blackjack` on the same table hosts as
Discord, with a local wallet, rich output and typed commands."""
