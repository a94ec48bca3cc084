"""Questions answered by paired simulations: what changes to cards and settings do
(`changes`), and what owning one card from the start is worth (`owner`)."""
