"""domain.dataset: the reference data set as one file (`python -m ops catalog export|import`)."""
