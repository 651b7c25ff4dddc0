"""domain.dataset: the reference data set as one file (`python -m ops catalog export|import`): its models
(`models`), its lists and their stored documents (`sections`), the file read (`reading`) and its references
checked (`checks`), an import planned (`planning`) and applied in one transaction (`importing`), and the
export (`exporting`)."""
